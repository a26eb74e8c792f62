import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { accountBalance } from "~/models/affiliate-account/account-data.server";
import { loadAffiliateDetail } from "~/models/affiliates/affiliate-detail.server";
import { getDashboardData } from "~/models/dashboard/dashboard-totals.server";
import { affiliateBalance } from "~/models/payouts/balance.server";
import { balanceOf, isPayable, type CommissionLine } from "~/models/payouts/payable-balance";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useMoneyCheck } from "../support/money-check";

// The payable-balance rule has one owner (app/models/payouts/payable-balance.ts).
// These tests hold the database queries to it: the grouped sums, the
// dashboard's count and the in-memory rule agree on the same lines, and the
// affiliate's portal and the admin's affiliate page show the same balance,
// per currency.
applyTestEnv();
useTestDatabase();
useMoneyCheck();

const LINES: (CommissionLine & { affiliate: "me" | "other" })[] = [
  { affiliate: "me", status: "approved", amount: 1234, currency: "USD", payoutId: null },
  { affiliate: "me", status: "approved", amount: -234, currency: "USD", payoutId: null },
  { affiliate: "me", status: "approved", amount: 500, currency: "EUR", payoutId: null },
  { affiliate: "me", status: "approved", amount: 999, currency: "USD", payoutId: "sending" },
  { affiliate: "me", status: "paid", amount: 700, currency: "USD", payoutId: "paid" },
  { affiliate: "me", status: "pending", amount: 300, currency: "USD", payoutId: null },
  { affiliate: "me", status: "pending", amount: 1500, currency: "JPY", payoutId: null },
  { affiliate: "me", status: "denied", amount: 111, currency: "USD", payoutId: null },
  { affiliate: "me", status: "void", amount: 222, currency: "EUR", payoutId: null },
  { affiliate: "other", status: "approved", amount: 99_999, currency: "USD", payoutId: null },
];

async function seed() {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id);
  const me = await buildAffiliate(shop.id, campaign.id);
  const other = await buildAffiliate(shop.id, campaign.id);
  // One payout on its way (its line is approved, not payable any more) and one paid.
  const payouts = {
    sending: await getDb().payout.create({
      data: { shopId: shop.id, affiliateId: me.id, amount: 999, currency: "USD", status: "processing" },
    }),
    paid: await getDb().payout.create({
      data: { shopId: shop.id, affiliateId: me.id, amount: 700, currency: "USD", status: "paid", paidAt: new Date() },
    }),
  };
  let n = 0;
  for (const l of LINES) {
    const affiliateId = l.affiliate === "me" ? me.id : other.id;
    const order = await buildOrder(shop.id, { affiliateId, currency: l.currency });
    const row = await buildCommission(shop.id, order.id, affiliateId, {
      amount: l.amount,
      status: l.status,
      currency: l.currency,
      sourceRef: `line-${n++}`,
    });
    if (l.payoutId === "sending" || l.payoutId === "paid") {
      await getDb().commission.update({ where: { id: row.id }, data: { payoutId: payouts[l.payoutId].id } });
    }
  }
  return { shop, me };
}

describe("the payable balance in the database", () => {
  it("sums exactly what the rule says, per currency", async () => {
    const { shop, me } = await seed();
    const expected = balanceOf(LINES.filter((l) => l.affiliate === "me"));
    expect(expected.payable).toEqual([
      { currency: "EUR", amount: 500 },
      { currency: "USD", amount: 1000 },
    ]);
    expect(await affiliateBalance(getDb(), { shopId: shop.id, affiliateId: me.id })).toEqual(expected);
  });

  it("counts the same lines on the dashboard as payable", async () => {
    const { shop } = await seed();
    const data = await getDashboardData({ id: shop.id, timezone: "UTC" }, "last30");
    expect(data.pending.commissions).toBe(LINES.filter(isPayable).length);
  });

  it("is the same on the affiliate's portal and on the admin's affiliate page (no sum across currencies)", async () => {
    const { shop, me } = await seed();
    const portal = await accountBalance(shopDb(getDb(), shop.id), me.id);
    const admin = await loadAffiliateDetail(shopDb(getDb(), shop.id), me.id, { withSales: true });
    expect(admin.money?.balance).toEqual(portal.payable);
    expect(portal.payable).toEqual([
      { currency: "EUR", amount: 500 },
      { currency: "USD", amount: 1000 },
    ]);
    expect(portal.pending).toEqual([
      { currency: "JPY", amount: 1500 },
      { currency: "USD", amount: 300 },
    ]);
  });
});
