import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { paymentSettingsSchema } from "~/models/payouts/payment-settings";
import { saveShopSetting } from "~/models/settings/save-shop-setting.server";
import { logInAs } from "../support/admin-client";
import { buildCommission, buildOrder, gatherPendingPayouts } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { useMoneyCheck } from "../support/money-check";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The dashboard counts every approved line not yet paid ("commissions
// waiting for payment"); the Payouts list's Pending tab showed only the
// payouts that reached the minimum, so lines under it were nowhere. They are
// listed there now, per affiliate, with the minimum.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const ROUTE = "routes/$role.payouts._index";
const DASHBOARD = "routes/$role.dashboard";

describe("lines below the minimum payout", () => {
  it("are listed on the Pending tab with the minimum, so they add up to the dashboard's count", async () => {
    const shop = await buildShop();
    await saveShopSetting(getDb(), shop.id, "payment", paymentSettingsSchema.parse({ minimumAmount: 2500 }));
    const user = await buildUser(shop.id, { email: "owner@below.example" });
    const campaign = await buildCampaign(shop.id);
    const ana = await buildAffiliate(shop.id, campaign.id, { firstName: "Ana", lastName: "Over" });
    const ben = await buildAffiliate(shop.id, campaign.id, { firstName: "Ben", lastName: "Under" });
    let n = 0;
    for (const [a, amount] of [
      [ana, 3000],
      [ben, 500],
      [ben, 300],
    ] as const) {
      const order = await buildOrder(shop.id, { affiliateId: a.id });
      await buildCommission(shop.id, order.id, a.id, { amount, status: "approved", sourceRef: `b${n++}` });
    }
    await gatherPendingPayouts(shop.id);
    const admin = await logInAs(server.url, "admin", user.email);

    const data = await (await admin.load("/admin/payouts", ROUTE)).json();
    expect(data.payouts.map((p: { lines: number }) => p.lines)).toEqual([1]);
    expect(data.belowMinimum).toMatchObject({
      minimum: 2500,
      lines: 2,
      totals: [{ currency: "USD", amount: 800 }],
      more: false,
      rows: [{ affiliateId: ben.id, name: "Ben Under", amount: 800, currency: "USD", lines: 2 }],
    });
    const dashboard = await (await admin.load("/admin/dashboard", DASHBOARD)).json();
    expect(dashboard.pending.commissions).toBe(1 + 2);

    const html = await (await admin.document("/admin/payouts")).text();
    expect(html).toContain("Below the minimum payout of $25.00");
    expect(html).toContain("Commission lines: 2, total: $8.00.");
    // Not on the other tabs.
    expect((await (await admin.load("/admin/payouts?status=paid", ROUTE)).json()).belowMinimum).toBeNull();
  });
});

describe("batches on their way", () => {
  it("show on the Processing tab how many of their payouts are settled, and leave once all are", async () => {
    const shop = await buildShop();
    const user = await buildUser(shop.id, { email: "owner@batches.example" });
    const campaign = await buildCampaign(shop.id);
    const ids: string[] = [];
    for (const [i, name] of ["Ana", "Ben", "Cy"].entries()) {
      const a = await buildAffiliate(shop.id, campaign.id, { firstName: name });
      const order = await buildOrder(shop.id, { affiliateId: a.id });
      await buildCommission(shop.id, order.id, a.id, { amount: 1000 + i, status: "approved", sourceRef: `p${i}` });
    }
    await gatherPendingPayouts(shop.id);
    for (const p of await getDb().payout.findMany({ where: { shopId: shop.id }, orderBy: { amount: "asc" } })) {
      ids.push(p.id);
    }
    const admin = await logInAs(server.url, "admin", user.email);
    const paid = await admin.act("/admin/payouts", ROUTE, { intent: "pay", ids, method: "manual" });
    expect(paid.status).toBe(200);
    const batchId = (await paid.json()).paid.batchId;

    const progress = async () =>
      (await (await admin.load("/admin/payouts?status=processing", ROUTE)).json()).batches as {
        id: string;
        total: number;
        settled: number;
        paid: number;
        failed: number;
      }[];
    expect(await progress()).toMatchObject([{ id: batchId, total: 3, settled: 0, paid: 0, failed: 0 }]);
    await admin.act(`/admin/payouts/${ids[0]}`, "routes/$role.payouts.$id", { intent: "mark-paid" });
    await admin.act(`/admin/payouts/${ids[1]}`, "routes/$role.payouts.$id", {
      intent: "mark-failed",
      reason: "IBAN closed",
    });
    expect(await progress()).toMatchObject([{ id: batchId, total: 3, settled: 2, paid: 1, failed: 1 }]);
    const html = await (await admin.document("/admin/payouts?status=processing")).text();
    expect(html).toContain("Settled 2 of 3 (paid 1, failed 1)");
    expect(html).toContain('value="67" max="100"');
    await admin.act(`/admin/payouts/${ids[2]}`, "routes/$role.payouts.$id", { intent: "mark-paid" });
    expect(await progress()).toEqual([]);
  });
});
