import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { previewTemplate } from "~/models/notifications/notification-admin.server";
import { payoutSentence } from "~/models/notifications/notification-values.server";
import { languageInfo } from "~/i18n/language-table";
import { markPayoutPaid } from "~/models/payouts/settle-payout.server";
import { drainJobs } from "~/worker/job-registry.server";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useSmtpSink } from "../support/smtp-sink";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The "payment sent" e-mail over real SMTP, one payout of each method: it
// names the way the affiliate was really paid, in the affiliate's language
// (a by-hand or CSV payout is not "by bank transfer"), and a payout paid as
// a discount code carries the code, since the code is the payment (issue 29).
applyTestEnv();
const received = useSmtpSink().received;
useTestDatabase();
beforeEach(() => {
  received.length = 0;
});

const SENT_BY_SENDER = ["paypal", "store_credit", "discount_code"];

/** Pays one payout of the method to a new affiliate and returns the text of the e-mail that reached the sink. */
async function paidMail(method: string, language: string | null) {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id, { status: "active" });
  const affiliate = await buildAffiliate(shop.id, campaign.id, { firstName: "Ada" });
  await getDb().affiliate.update({ where: { id: affiliate.id }, data: { language } });
  const code = method === "discount_code" ? `PAY-${affiliate.id.slice(-12).toUpperCase()}` : null;
  const payout = await getDb().payout.create({
    data: {
      shopId: shop.id,
      affiliateId: affiliate.id,
      amount: 12_000,
      currency: "USD",
      status: "processing",
      method,
      discountCode: code,
    },
  });
  const by = SENT_BY_SENDER.includes(method) ? "sender" : "merchant";
  await getDb().$transaction((tx) =>
    markPayoutPaid(tx, shop.id, payout.id, { actor: by === "sender" ? "system" : "user", by, note: code }),
  );
  await drainJobs();
  const mine = () => received.filter((m) => (m.to && "text" in m.to ? m.to.text : "") === affiliate.email);
  for (let i = 0; i < 100 && mine().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(mine()).toHaveLength(1);
  return { text: mine()[0]!.text ?? "", subject: mine()[0]!.subject ?? "", code };
}

describe("payment sent e-mail over SMTP", () => {
  it("names each method in English, and no by-hand or CSV payout is 'by bank transfer'", async () => {
    expect((await paidMail("paypal", "en")).text).toContain("we have sent you $120.00 by PayPal.");
    expect((await paidMail("store_credit", "en")).text).toContain(
      "we have added $120.00 to your store credit in our store.",
    );
    for (const method of ["manual", "csv"]) {
      const { text } = await paidMail(method, "en");
      expect(text).toContain("the store has paid you $120.00.");
      expect(text).not.toMatch(/bank transfer/i);
    }
  });

  it("gives the discount code and its value", async () => {
    const { text, code } = await paidMail("discount_code", "en");
    expect(text).toContain(
      `your payment of $120.00 is a discount code for our store, to enter at checkout (it can be used once). Your code: ${code}`,
    );
  });

  it("is in the affiliate's language (German)", async () => {
    const paypal = await paidMail("paypal", "de");
    expect(paypal.subject).toMatch(/120,00\s\$/);
    expect(paypal.text).toMatch(/wir haben Ihnen 120,00\s\$ per PayPal gesendet\./);
    const csv = await paidMail("csv", "de");
    expect(csv.text).toMatch(/der Shop hat Ihnen 120,00\s\$ ausgezahlt\./);
    expect(csv.text).not.toMatch(/Banküberweisung/);
    const code = await paidMail("discount_code", "de");
    expect(code.text).toContain(code.code!);
    expect(code.text).toMatch(/Ihre Zahlung über 120,00\s\$ ist ein Rabattcode/);
  });

  it("previews the sentence in the merchant's language and currency, not the catalogue's English sample", async () => {
    const shop = await buildShop({ language: "de" });
    await getDb().shop.update({ where: { id: shop.id }, data: { currency: "EUR" } });
    const { preview } = await previewTemplate(shopDb(getDb(), shop.id), "affiliate.payout_sent", {
      subject: "{{ payout.amount }}",
      body: "{{ payout.sentence }}",
    });
    expect(preview.text).toMatch(/wir haben Ihnen 120,00\s€ per PayPal gesendet\./);
  });

  it("says bank transfer only for a payout whose method is bank transfer", () => {
    const en = languageInfo("en")!;
    const de = languageInfo("de")!;
    expect(payoutSentence(en, { method: "bank", amount: "$120.00" })).toBe(
      "we have sent you $120.00 by bank transfer.",
    );
    expect(payoutSentence(de, { method: "bank", amount: "120,00 $" })).toBe(
      "wir haben Ihnen 120,00 $ per Banküberweisung gesendet.",
    );
    // A discount-code payout whose code is missing does not promise a code.
    expect(payoutSentence(en, { method: "discount_code", amount: "$120.00" })).toBe("the store has paid you $120.00.");
  });
});
