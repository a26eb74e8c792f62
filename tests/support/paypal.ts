import { afterAll, beforeAll, beforeEach } from "vitest";
import { getDb } from "~/db.server";
import { sealSecret } from "~/lib/secret-box.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { refreshPendingPayouts } from "~/models/payouts/refresh-pending-payouts.server";
import { buildCommission, buildOrder } from "./api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "./builders";
import { freePort } from "./free-port";
import { PaypalFake, startPrism } from "./paypal-fake";

export const FAKE_CLIENT_ID = "AYfakeClientId_0123456789";
export const FAKE_SECRET = "EFfakeSecret-0123456789";
export const FAKE_WEBHOOK_ID = "8PT597110X687430LKGECATA";

/**
 * The PayPal of a test file: Prism on PayPal's OpenAPI file (validating every
 * Payouts request) behind the stateful fake, and PAYPAL_API_BASE_URL pointing
 * at the fake. Register before useTestDatabase / useTestServer so the app
 * reads the URL when it first loads its configuration.
 */
export function usePaypal(options: { prism?: boolean } = {}): { fake: () => PaypalFake } {
  const fake = new PaypalFake({ credentials: { [FAKE_CLIENT_ID]: FAKE_SECRET } });
  let prism: Awaited<ReturnType<typeof startPrism>> | null = null;
  beforeAll(async () => {
    if (options.prism !== false) {
      prism = await startPrism(await freePort());
      (fake as unknown as { options: { prismUrl?: string } }).options.prismUrl = prism.url;
    }
    process.env.PAYPAL_API_BASE_URL = await fake.start();
    const { resetConfigForTests } = await import("~/config.server");
    resetConfigForTests();
  }, 90_000);
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await fake.close();
    await prism?.stop();
  });
  return { fake: () => fake };
}

/** A shop connected to the fake PayPal (what the connect screen stores). */
export async function connectShopToFake(shopId: string, webhookId: string | null = FAKE_WEBHOOK_ID) {
  await getDb().paypalConnection.create({
    data: {
      shopId,
      mode: "sandbox",
      clientId: FAKE_CLIENT_ID,
      secretEncrypted: sealSecret(FAKE_SECRET, shopId),
      accountInfo: JSON.stringify({ app_id: "APP-FAKE", scope: "https://uri.paypal.com/payments/payouts" }),
      webhookId,
      verifiedAt: new Date(),
    },
  });
}

/** A connected shop with one pending payout per receiver e-mail (null: no PayPal e-mail), in a PayPal batch. */
export async function paypalBatchFor(receivers: (string | null)[], amount = 2_500, currency = "USD") {
  const shop = await buildShop();
  await connectShopToFake(shop.id);
  const campaign = await buildCampaign(shop.id);
  const db = getDb();
  const affiliates = [];
  for (const [i, receiver] of receivers.entries()) {
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    await db.affiliate.update({ where: { id: affiliate.id }, data: { paypalEmail: receiver } });
    const order = await buildOrder(shop.id, { affiliateId: affiliate.id, currency });
    await buildCommission(shop.id, order.id, affiliate.id, {
      amount,
      status: "approved",
      currency,
      sourceRef: `l${i}`,
    });
    affiliates.push(affiliate);
  }
  const { batchId } = await db.$transaction(async (tx) => {
    await refreshPendingPayouts(tx, shop.id);
    const pending = await tx.payout.findMany({ where: { shopId: shop.id, status: "pending" }, select: { id: true } });
    return createPayoutBatch(tx, shop.id, { payoutIds: pending.map((p) => p.id), method: "paypal", createdBy: "test" });
  });
  const payoutOf = async (affiliateId: string) => db.payout.findFirstOrThrow({ where: { affiliateId, batchId } });
  return { shop, affiliates, batchId, payoutOf };
}
