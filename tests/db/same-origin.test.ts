import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Cross-site request forgery through Remix's data requests: a page on another
// origin (another port of the same host is the same *site*, so the browser
// sends the Lax session cookie along) posts to `?_data=`. Every change made
// with a session cookie must come from the app's own origin.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const AFFILIATES = "routes/$role.affiliates._index";
const STAFF = "routes/$role.settings.staff";

let campaignId = "";

async function loggedInAdmin() {
  const shop = await buildShop();
  campaignId = (await buildCampaign(shop.id)).id;
  await buildUser(shop.id, { email: "owner@example.com" });
  const admin = new HttpClient(server.url);
  expect((await admin.postForm("/login", { email: "owner@example.com", password: TEST_PASSWORD })).status).toBe(302);
  return { shop, admin };
}

const addAffiliate = (admin: HttpClient, headers: Record<string, string>) =>
  admin.postForm(
    `/admin/affiliates?_data=${encodeURIComponent(AFFILIATES)}`,
    {
      intent: "create",
      email: "planted@example.com",
      first_name: "Planted",
      last_name: "",
      status: "approved",
      campaign_id: campaignId,
      referral_code: "",
      coupon_codes: "",
      upline: "",
    },
    headers,
  );

describe("changes made with a session cookie", () => {
  const own = () => new URL(server.url("/")).origin;
  const foreign = () => {
    const url = new URL(server.url("/"));
    url.port = String(Number(url.port) + 1);
    return url.origin;
  };

  it.each([
    ["another port of the same host", () => ({ Origin: foreign() })],
    ["a same-site fetch", () => ({ "Sec-Fetch-Site": "same-site", Origin: own() })],
    ["a cross-site fetch", () => ({ "Sec-Fetch-Site": "cross-site" })],
    ["an opaque origin", () => ({ Origin: "null" })],
    ["a foreign referer and no origin", () => ({ Referer: `${foreign()}/attack.html` })],
  ])("are refused with 403 from %s, and change nothing", async (_name, headers) => {
    const { shop, admin } = await loggedInAdmin();
    const res = await addAffiliate(admin, headers());
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/app's own pages/);
    const invite = await admin.postForm(
      `/admin/settings/staff?_data=${encodeURIComponent(STAFF)}`,
      { intent: "invite", email: "mole@example.com", name: "Mole", permissions: "sales" },
      headers(),
    );
    expect(invite.status).toBe(403);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(0);
    expect(await getDb().user.count({ where: { shopId: shop.id, role: "staff" } })).toBe(0);
  });

  it("are made from the app's own pages", async () => {
    const { shop, admin } = await loggedInAdmin();
    const res = await addAffiliate(admin, { Origin: own(), "Sec-Fetch-Site": "same-origin" });
    expect(res.status).toBe(200);
    expect(await getDb().affiliate.count({ where: { shopId: shop.id } })).toBe(1);
  });

  it("leave reading alone: a cross-site GET of a page still answers (cookies are Lax; reads change nothing)", async () => {
    const { admin } = await loggedInAdmin();
    const res = await admin.get(`/admin/affiliates?_data=${encodeURIComponent(AFFILIATES)}`, {
      "Sec-Fetch-Site": "same-site",
    });
    expect(res.status).toBe(200);
  });
});
