import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { loadSetupGuide } from "~/models/setup/setup-guide.server";
import { buildClick, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The dashboard's setup guide ticks each step from the shop's own rows (its
// six checks are one raw statement, scoped by hand): a row of another shop
// ticks nothing.

applyTestEnv();
useTestDatabase();

type Fact = (shopId: string) => Promise<unknown>;
const FACTS: [string, Fact, string[]][] = [
  [
    "a visit the app embed reported",
    async (shopId) => {
      const affiliate = await buildAffiliate(shopId, (await buildCampaign(shopId)).id, { status: "pending" });
      const click = await buildClick(shopId, affiliate.id);
      await getDb().click.update({ where: { id: click.id }, data: { source: "proxy" } });
    },
    ["appEmbed", "campaign"],
  ],
  ["an order credited by link", (shopId) => buildOrder(shopId, { attributionSource: "link" }), ["appEmbed"]],
  ["a campaign", (shopId) => buildCampaign(shopId), ["campaign"]],
  [
    "a published portal page",
    (shopId) => getDb().portalPage.create({ data: { shopId, kind: "landing", publishedAt: new Date() } }),
    ["portal"],
  ],
  [
    "an approved affiliate",
    async (shopId) => buildAffiliate(shopId, (await buildCampaign(shopId)).id, { status: "approved" }),
    ["campaign", "affiliateApproved"],
  ],
  [
    "a credited sale",
    async (shopId) => {
      const affiliate = await buildAffiliate(shopId, (await buildCampaign(shopId)).id, { status: "pending" });
      await buildOrder(shopId, { affiliateId: affiliate.id, attributionSource: "coupon" });
    },
    ["campaign", "firstSale"],
  ],
];

const ticked = async (shopId: string) =>
  (await loadSetupGuide(shopDb(getDb(), shopId), "{}")).steps.filter((s) => s.done).map((s) => s.key);

describe("the setup guide", () => {
  it.each(FACTS)("ticks from %s, in its own shop only", async (_, make, steps) => {
    const own = await buildShop();
    const other = await buildShop();
    await make(own.id);
    expect(await ticked(own.id)).toEqual(steps);
    expect(await ticked(other.id)).toEqual([]);
  });

  it("ticks the payout method from the settings, and is complete with everything", async () => {
    const shop = await buildShop();
    for (const [, make] of FACTS) await make(shop.id);
    const guide = await loadSetupGuide(shopDb(getDb(), shop.id), JSON.stringify({ payment: { method: "paypal" } }));
    expect(guide).toMatchObject({ done: 6, total: 6, complete: true, dismissed: false });
  });
});
