import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { affiliateSchema } from "~/models/api/schemas";
import { logInAs } from "../support/admin-client";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Issue 32: the codes an import kept from the shop's previous affiliate app
// (ReferralAlias, ADR 048) on the affiliate's admin page, removable there,
// and in the REST API's affiliate. Over real HTTP against the built app.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const DETAIL = "routes/$role.affiliates.$id";

async function shopWithAliases(domain: string) {
  const shop = await buildShop({ domain });
  const campaign = await buildCampaign(shop.id);
  const anna = await buildAffiliate(shop.id, campaign.id, { referralCode: "ANNA", email: `anna@${domain}` });
  for (const [code, source] of [
    ["48213-9F2C", "uppromote"],
    ["12-AB34CD", "refersion"],
  ])
    await getDb().referralAlias.create({ data: { shopId: shop.id, affiliateId: anna.id, code, source } });
  const user = await buildUser(shop.id, { email: `admin@${domain}` });
  const admin = await logInAs(server.url, "admin", user.email);
  const aliases = await getDb().referralAlias.findMany({ where: { affiliateId: anna.id }, orderBy: { code: "asc" } });
  return { shop, anna, admin, aliases };
}

describe("codes from the previous app on the affiliate's page", () => {
  it("lists them with their app, and removes one after the merchant saw it; a stale removal is 409", async () => {
    const { anna, admin, aliases } = await shopWithAliases("aliases-shop.myshopify.com");
    const page = await (await admin.load(`/admin/affiliates/${anna.id}`, DETAIL)).json();
    expect(page.aliases).toEqual([
      { id: aliases[0]!.id, code: "12-AB34CD", source: "refersion" },
      { id: aliases[1]!.id, code: "48213-9F2C", source: "uppromote" },
    ]);
    const html = await (await admin.document(`/admin/affiliates/${anna.id}`)).text();
    expect(html).toContain("Codes from your previous app");
    expect(html).toContain("48213-9F2C");
    expect(html).toContain("UpPromote");

    // Bad input: 4xx, nothing changed.
    for (const bad of [
      { intent: "removeAlias", alias_id: aliases[0]!.id },
      { intent: "removeAlias", code: "X" },
    ]) {
      const res = await admin.act(`/admin/affiliates/${anna.id}`, DETAIL, bad);
      expect(res.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    // The code the page showed is compared too: one changed meanwhile is a conflict.
    const changed = await admin.act(`/admin/affiliates/${anna.id}`, DETAIL, {
      intent: "removeAlias",
      alias_id: aliases[0]!.id,
      code: "12-OTHER",
    });
    expect(changed.status).toBe(409);
    expect(await getDb().referralAlias.count({ where: { affiliateId: anna.id } })).toBe(2);

    const removed = await admin.act(`/admin/affiliates/${anna.id}`, DETAIL, {
      intent: "removeAlias",
      alias_id: aliases[0]!.id,
      code: "12-AB34CD",
    });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(await removed.json()).toMatchObject({ intent: "removeAlias", removedAlias: "12-AB34CD" });
    expect(await getDb().referralAlias.findMany({ where: { affiliateId: anna.id }, select: { code: true } })).toEqual([
      { code: "48213-9F2C" },
    ]);
    // The same removal again (a second tab): 409, nothing else goes.
    const again = await admin.act(`/admin/affiliates/${anna.id}`, DETAIL, {
      intent: "removeAlias",
      alias_id: aliases[0]!.id,
      code: "12-AB34CD",
    });
    expect(again.status).toBe(409);
    expect(await getDb().referralAlias.count({ where: { affiliateId: anna.id } })).toBe(1);
  });

  it("another shop's admin neither sees nor removes them", async () => {
    const { anna, aliases } = await shopWithAliases("aliases-owner.myshopify.com");
    const other = await shopWithAliases("aliases-other.myshopify.com");
    const seen = await other.admin.load(`/admin/affiliates/${anna.id}`, DETAIL);
    expect(seen.status).toBe(404);
    expect(await seen.text()).not.toContain("48213-9F2C");
    // Through another shop's affiliate, or its own affiliate's page, with this shop's alias id.
    for (const path of [`/admin/affiliates/${anna.id}`, `/admin/affiliates/${other.anna.id}`]) {
      const res = await other.admin.act(path, DETAIL, {
        intent: "removeAlias",
        alias_id: aliases[0]!.id,
        code: aliases[0]!.code,
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
    expect(await getDb().referralAlias.count({ where: { affiliateId: anna.id } })).toBe(2);
    const page = await (await other.admin.load(`/admin/affiliates/${other.anna.id}`, DETAIL)).json();
    expect(page.aliases.map((a: { code: string }) => a.code)).toEqual(["12-AB34CD", "48213-9F2C"]);
    expect(page.aliases.map((a: { id: string }) => a.id)).not.toContain(aliases[0]!.id);
  });
});

describe("the REST API's affiliate", () => {
  it("carries its codes from the previous app as aliases [{code, source}], and only its own shop's", async () => {
    const { shop, anna } = await shopWithAliases("aliases-api.myshopify.com");
    const other = await shopWithAliases("aliases-api-other.myshopify.com");
    const { key } = await buildApiKey(shop.id);
    const api = new ApiClient(server.url, key);
    const one = affiliateSchema.strict().parse(await (await api.get(`/api/v1/affiliates/${anna.id}`)).json());
    expect(one.aliases).toEqual([
      { code: "12-AB34CD", source: "refersion" },
      { code: "48213-9F2C", source: "uppromote" },
    ]);
    const list = await (await api.get(`/api/v1/affiliates`)).json();
    expect(list.data.map((a: { id: string; aliases: unknown[] }) => [a.id, a.aliases.length])).toEqual([[anna.id, 2]]);
    expect((await api.get(`/api/v1/affiliates/${other.anna.id}`)).status).toBe(404);
    // An affiliate without any has an empty list; a PATCH answers them too.
    const patched = await api.patch(`/api/v1/affiliates/${anna.id}`, { first_name: "Annie" });
    expect(patched.status).toBe(200);
    expect((await patched.json()).aliases).toHaveLength(2);
  });
});
