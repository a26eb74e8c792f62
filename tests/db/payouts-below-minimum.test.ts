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
