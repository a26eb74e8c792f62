import type { Db } from "../../db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { createWebhook, listWebhooks, PaypalError } from "./paypal-client.server";
import { paypalCredentials, paypalWebhookUrl } from "./paypal-connection.server";

// Registers the shop's webhook URL with the merchant's PayPal REST app
// (Webhooks Management v1, POST /v1/notifications/webhooks) for the payout
// item events, and stores the webhook id the signature check needs (ADR 022).
// Safe to repeat: PayPal refuses a URL already subscribed
// (WEBHOOK_URL_ALREADY_EXISTS), and then the existing webhook is looked up by
// its URL and its id stored.

/** The events the app applies (apply-paypal-item.server.ts). */
export const PAYOUT_ITEM_EVENTS = [
  "PAYMENT.PAYOUTS-ITEM.SUCCEEDED",
  "PAYMENT.PAYOUTS-ITEM.FAILED",
  "PAYMENT.PAYOUTS-ITEM.RETURNED",
  "PAYMENT.PAYOUTS-ITEM.BLOCKED",
  "PAYMENT.PAYOUTS-ITEM.REFUNDED",
  "PAYMENT.PAYOUTS-ITEM.UNCLAIMED",
  "PAYMENT.PAYOUTS-ITEM.DENIED",
  "PAYMENT.PAYOUTS-ITEM.HELD",
  "PAYMENT.PAYOUTS-ITEM.CANCELED",
];

export async function registerPaypalWebhook(db: Db, shopId: string): Promise<{ webhookId: string }> {
  const credentials = await paypalCredentials(db, shopId).catch(() => null);
  if (!credentials) throw new AppError("conflict", msg("Payouts:paypal.failure.notConnected"));
  const url = paypalWebhookUrl(shopId);
  let webhookId: string;
  try {
    webhookId = (await createWebhook(credentials, url, PAYOUT_ITEM_EVENTS)).id;
  } catch (error) {
    if (!(error instanceof PaypalError) || error.body?.name !== "WEBHOOK_URL_ALREADY_EXISTS") throw error;
    const existing = (await listWebhooks(credentials)).find((w) => w.url === url);
    if (!existing) throw error;
    webhookId = existing.id;
  }
  await db.paypalConnection.updateMany({ where: { shopId }, data: { webhookId } });
  return { webhookId };
}
