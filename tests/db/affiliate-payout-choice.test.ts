import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { payoutBatchResultSchema } from "~/models/api/payout-schemas";
import { saveShopSetting } from "~/models/settings/save-shop-setting.server";
import { paymentSettingsSchema } from "~/models/payouts/payment-settings";
import { ApiClient, buildApiKey, buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useMoneyCheck } from "../support/money-check";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The affiliate's own payout method over real HTTP: chosen on
// /account/payouts among what the merchant offers, bank fields checked (an
// IBAN by its checksum), sealed at rest and only ever shown masked; the
// account area reminds an affiliate who has none, and tells one whose
// method the merchant stopped offering; the REST API without a method pays
// each affiliate by theirs.
applyTestEnv();
useTestDatabase();
useMoneyCheck();
const server = useTestServer();

const PASSWORD = "affiliate password 1";
const IBAN = "DE89 3704 0044 0532 0130 00";

let shop: Awaited<ReturnType<typeof buildShop>>;
let campaign: Awaited<ReturnType<typeof buildCampaign>>;

async function offer(payment: object) {
  await saveShopSetting(getDb(), shop.id, "payment", paymentSettingsSchema.parse(payment));
}

async function loggedIn(overrides: { paypalEmail?: string | null } = {}) {
  const me = await buildAffiliate(shop.id, campaign.id, { password: PASSWORD, ...overrides });
  const c = new HttpClient(server.url);
  const handle = shop.domain.replace(".myshopify.com", "");
  expect((await c.postForm(`/portal/${handle}/login`, { email: me.email, password: PASSWORD })).status).toBe(302);
  return { me, c };
}

beforeEach(async () => {
  shop = await buildShop();
  campaign = await buildCampaign(shop.id);
  await offer({ affiliateMethods: ["paypal", "bank"], bankFields: ["Account holder", "IBAN"], defaultMethod: "csv" });
});

describe("the affiliate's payout method", () => {
  it("reminds an affiliate who has none, on every account page, naming what pays them meanwhile", async () => {
    const { c } = await loggedIn();
    for (const path of ["/account", "/account/sales", "/account/payouts"]) {
      const html = await (await c.get(path)).text();
      expect(html, path).toContain('data-testid="payout-method-reminder"');
      expect(html, path).toContain("Choose how you want to be paid. Until then: Manual.");
    }
  });

  it("saves bank details sealed at rest and shows them only masked", async () => {
    const { me, c } = await loggedIn();
    const bad = await c.postForm("/account/payouts", {
      method: "bank",
      bank_0: "",
      bank_1: "DE89 3704 0044 0532 0130 01",
      current: PASSWORD,
    });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Enter a valid IBAN");
    expect(badHtml).toContain("Fill in this field");

    const ok = await c.postForm("/account/payouts", {
      method: "bank",
      bank_0: "Ana Ruiz",
      bank_1: IBAN,
      current: PASSWORD,
    });
    expect(location(ok)).toBe("/account/payouts?saved=1");
    const row = await getDb().affiliate.findUniqueOrThrow({ where: { id: me.id } });
    expect(row.payoutMethod).toBe("bank");
    expect(row.payoutDetailsMask).toBe("IBAN •••• 3000");
    expect(row.payoutDetails).toMatch(/^v1:/);
    // Whole values: a short piece such as "Ana" turns up in random base64 now and then.
    expect(row.payoutDetails).not.toContain(IBAN);
    expect(row.payoutDetails).not.toContain("Ana Ruiz");

    const page = await (await c.get("/account/payouts")).text();
    expect(page).toContain("Saved: IBAN •••• 3000");
    expect(page).not.toContain("DE89370400440532013000");
    expect(page).not.toContain('data-testid="payout-method-reminder"');

    // Changing to PayPal and back without retyping keeps the sealed details.
    await c.postForm("/account/payouts", { method: "paypal", paypalEmail: "ana@pay.example", current: PASSWORD });
    expect(
      location(await c.postForm("/account/payouts", { method: "bank", bank_0: "", bank_1: "", current: PASSWORD })),
    ).toBe("/account/payouts?saved=1");
    const again = await getDb().affiliate.findUniqueOrThrow({ where: { id: me.id } });
    expect([again.payoutMethod, again.payoutDetails]).toEqual(["bank", row.payoutDetails]);
  });

  it("refuses a method the merchant does not offer", async () => {
    const { me, c } = await loggedIn();
    const res = await c.postForm("/account/payouts", { method: "store_credit", current: PASSWORD });
    expect(res.status).toBe(422);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: me.id } })).payoutMethod).toBeNull();
  });

  it("tells the affiliate when the merchant stops offering their method, and the default pays", async () => {
    const { c } = await loggedIn();
    await c.postForm("/account/payouts", { method: "bank", bank_0: "Ana Ruiz", bank_1: IBAN, current: PASSWORD });
    await offer({ affiliateMethods: ["paypal"], defaultMethod: "csv" });
    const html = await (await c.get("/account")).text();
    expect(html).toContain("Bank transfer is no longer offered. Choose another method; until then: Manual.");
  });

  it("answers a payout currency the shop does not offer on the page, beside the field, in the affiliate's language", async () => {
    await offer({ affiliateMethods: ["paypal"], payoutCurrencies: ["CAD"] });
    const { me, c } = await loggedIn();
    await getDb().affiliate.update({ where: { id: me.id }, data: { language: "de", payoutCurrency: "CAD" } });
    const page = await (await c.get("/account/payouts")).text();
    // Where the page's currency form posts.
    const action = /<form method="post" action="([^"]+)" id="payout-currency"/.exec(page)?.[1];
    expect(action).toBeDefined();

    for (const payoutCurrency of ["GBP", "X1"]) {
      const res = await c.postForm(action!, { payoutCurrency });
      expect(res.status, payoutCurrency).toBe(422);
      const html = await res.text();
      // The whole page again, with the error under the currency field.
      expect(html).toContain('id="payout-currency"');
      expect(html).toMatch(/id="field-payoutCurrencyError"[^>]*>[\s\S]*?Wählen Sie eine der Optionen/);
      expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: me.id } })).payoutCurrency).toBe("CAD");
    }
    // A currency on offer still saves, and the shop's own is stored as "none chosen".
    expect(location(await c.postForm(action!, { payoutCurrency: "USD" }))).toBe("/account/payouts?saved=1");
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: me.id } })).payoutCurrency).toBeNull();
  });

  it("pays each affiliate by their own method through the REST API when no method is given", async () => {
    const { key } = await buildApiKey(shop.id);
    const api = new ApiClient(server.url, key);
    const { me, c } = await loggedIn();
    await c.postForm("/account/payouts", { method: "bank", bank_0: "Ana Ruiz", bank_1: IBAN, current: PASSWORD });
    const other = await buildAffiliate(shop.id, campaign.id);
    for (const [i, a] of [me, other].entries()) {
      const order = await buildOrder(shop.id, { affiliateId: a.id });
      await buildCommission(shop.id, order.id, a.id, { amount: 1500, status: "approved", sourceRef: `r${i}` });
    }
    const res = await api.post("/api/v1/payouts", {});
    expect(res.status).toBe(201);
    const result = payoutBatchResultSchema.parse(await res.json());
    expect(result.batch_ids).toHaveLength(2);
    const methods = Object.fromEntries(result.payouts.map((p) => [p.affiliate_id, p.method]));
    expect(methods).toEqual({ [me.id]: "manual", [other.id]: "csv" });
  });
});
