import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { FLOW_ACTION_HANDLES } from "~/models/flow/flow-actions";
import { FLOW_TRIGGER_HANDLES } from "~/models/flow/flow-triggers";
import { logInAs } from "../support/admin-client";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The admin's side of Shopify Flow over HTTP: Settings › Shopify Flow lists
// what the app offers Flow and says whether Flow reaches the shop; the tags
// the Flow action sets are on the affiliate's page and filter the list.

applyTestEnv();
useTestDatabase();
const server = useTestServer();

async function setup() {
  const shop = await buildShop({ domain: "flow-settings.myshopify.com" });
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shop.id, { role: "admin", email });
  return { shop, admin: await logInAs(server.url, "admin", email) };
}

describe("the admin's Shopify Flow screens", () => {
  it("Settings › Shopify Flow lists every trigger and action and whether Flow reaches the shop", async () => {
    const { admin } = await setup();
    const ROUTE = "routes/$role.settings.flow";
    const standalone = (await (await admin.load("/admin/settings/flow", ROUTE)).json()) as Record<string, any>;
    expect(standalone.reachable).toBe(false);
    expect(standalone.triggers.map((t: { handle: string }) => t.handle)).toEqual(FLOW_TRIGGER_HANDLES);
    expect(standalone.actions.map((a: { handle: string }) => a.handle)).toEqual(FLOW_ACTION_HANDLES);

    const page = await (await admin.document("/admin/settings/flow")).text();
    expect(page).toContain("Not connected");
    expect(page).toContain("Adjust affiliate commission");
    expect(page).toContain("The leak watch found an affiliate&#x27;s code used where it should not be");
    // Every sentence is translated: no raw key reaches the page.
    expect(page).not.toMatch(/flow\.(triggers|actions)\.[a-z-]+/);

    await getDb().session.create({
      data: {
        id: "offline_flow-settings.myshopify.com",
        shop: "flow-settings.myshopify.com",
        state: "",
        accessToken: "t",
      },
    });
    const connected = (await (await admin.load("/admin/settings/flow", ROUTE)).json()) as Record<string, any>;
    expect(connected.reachable).toBe(true);
    // The settings index links to it.
    expect(await (await admin.document("/admin/settings")).text()).toContain("/admin/settings/flow");
  });

  it("shows an affiliate's tags on its page and filters the list by tag", async () => {
    const { shop, admin } = await setup();
    const campaign = await buildCampaign(shop.id);
    const vip = await buildAffiliate(shop.id, campaign.id, { email: "vip@example.com" });
    const other = await buildAffiliate(shop.id, campaign.id, { email: "other@example.com" });
    await getDb().affiliateTag.createMany({
      data: [
        { shopId: shop.id, affiliateId: vip.id, tag: "vip" },
        { shopId: shop.id, affiliateId: vip.id, tag: "tiktok" },
        { shopId: shop.id, affiliateId: other.id, tag: "tiktok" },
      ],
    });
    const detail = (await (await admin.load(`/admin/affiliates/${vip.id}`, "routes/$role.affiliates.$id")).json()) as {
      affiliate: { tags: string[] };
    };
    expect(detail.affiliate.tags).toEqual(["tiktok", "vip"]);
    expect(await (await admin.document(`/admin/affiliates/${vip.id}`)).text()).toContain("/admin/affiliates?tag=vip");

    const list = async (query: string) =>
      (await (await admin.load(`/admin/affiliates${query}`, "routes/$role.affiliates._index")).json()) as {
        rows: { id: string }[];
        tags: string[];
      };
    const vips = await list("?tag=VIP");
    expect(vips.rows.map((r) => r.id)).toEqual([vip.id]);
    expect(vips.tags).toEqual(["tiktok", "vip"]);
    expect((await list("?tag=tiktok")).rows).toHaveLength(2);
    expect((await list("?tag=nobody")).rows).toHaveLength(0);
  });
});
