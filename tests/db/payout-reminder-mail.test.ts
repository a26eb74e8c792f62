import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { queueEmails } from "~/models/mail/outbox.server";
import { composePayoutReminders } from "~/models/notifications/scheduled-mail.server";
import { notificationShopSelect } from "~/models/notifications/notification-values.server";
import { saveAffiliatePayoutChoice } from "~/models/payouts/affiliate-payout-choice.server";
import { paymentSettingsSchema } from "~/models/payouts/payment-settings";
import { saveShopSetting } from "~/models/settings/save-shop-setting.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// The "payout method missing" reminder (notifications/kinds/
// affiliate-payout-reminder.ts, queued by the daily mail): an affiliate owed
// money with no method of their own that the shop offers gets it, in their
// language, at most once in the reminder period; one whose choice the shop
// still offers does not, and nor does one who is owed nothing.
applyTestEnv();
useTestDatabase();
useNoRenderUnderWriteLock();

describe("payout method reminder", () => {
  it("reminds affiliates owed money without a method of their own the shop offers", async () => {
    const shop = await buildShop();
    await saveShopSetting(
      getDb(),
      shop.id,
      "payment",
      paymentSettingsSchema.parse({ affiliateMethods: ["paypal", "bank"], bankFields: ["IBAN"] }),
    );
    const campaign = await buildCampaign(shop.id);
    const none = await buildAffiliate(shop.id, campaign.id, { email: "none@aff.example" });
    const bank = await buildAffiliate(shop.id, campaign.id, { email: "bank@aff.example" });
    const dropped = await buildAffiliate(shop.id, campaign.id, { email: "dropped@aff.example" });
    const paypal = await buildAffiliate(shop.id, campaign.id, {
      email: "pp@aff.example",
      paypalEmail: "pp@pay.example",
    });
    await buildAffiliate(shop.id, campaign.id, { email: "owed-nothing@aff.example" });
    await getDb().affiliate.update({ where: { id: dropped.id }, data: { language: "de" } });
    await saveAffiliatePayoutChoice(getDb(), shop.id, bank.id, {
      method: "bank",
      details: [{ label: "IBAN", value: "DE89370400440532013000" }],
    });
    await saveAffiliatePayoutChoice(getDb(), shop.id, dropped.id, { method: "store_credit" });
    for (const [i, a] of [none, bank, dropped, paypal].entries()) {
      const order = await buildOrder(shop.id, { affiliateId: a.id });
      await buildCommission(shop.id, order.id, a.id, { amount: 4200, status: "approved", sourceRef: `m${i}` });
    }
    const row = await getDb().shop.findUniqueOrThrow({
      where: { id: shop.id },
      select: { ...notificationShopSelect, timezone: true },
    });

    // Composed outside the transaction that queues them, as the daily job does.
    const remind = async (day: string) => {
      const mails = await composePayoutReminders(getDb(), row, day);
      return getDb().$transaction((tx) => queueEmails(tx, mails));
    };
    expect(await remind("2026-11-28")).toBe(2);
    const mails = await getDb().outboxEmail.findMany({
      where: { shopId: shop.id, kind: "affiliate.payout_reminder" },
      orderBy: { toAddress: "asc" },
    });
    expect(mails.map((m) => m.toAddress)).toEqual(["dropped@aff.example", "none@aff.example"]);
    const [de, en] = mails;
    expect(en!.subject).toBe("Add a payout method to receive $42.00");
    expect(en!.text).toContain("Choose how you want to be paid:");
    expect(en!.text).toContain("/account/payouts");
    expect(de!.text).toContain("Wählen Sie, wie Sie bezahlt werden möchten:");

    // Not again within the reminder period, even on the next day.
    expect(await remind("2026-11-29")).toBe(0);
  });
});
