import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import { applyPaypalItem, itemUpdateOf } from "./apply-paypal-item.server";
import { PaypalError, verifyWebhookSignature } from "./paypal-client.server";
import { paypalCredentials } from "./paypal-connection.server";

// POST /webhooks/paypal/{shopId}: PayPal's PAYMENT.PAYOUTS-ITEM.* events.
// Verified by asking PayPal (verify-webhook-signature with the shop's
// credentials and webhook id) before anything is read from the body; an
// event that does not verify changes nothing (401, PayPal retries a real one
// later). A verified item event is applied at once; the status job would
// reach the same state on its next check, so a lost webhook loses nothing.

const HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

export async function receivePaypalWebhook(shopId: string, headers: Headers, raw: string) {
  let event: { id?: string; event_type?: string; resource?: Record<string, unknown> };
  try {
    event = JSON.parse(raw);
  } catch {
    throw new AppError("bad_request", "The body is not JSON.");
  }
  const db = getDb();
  const credentials = await paypalCredentials(db, shopId).catch(() => null);
  if (!credentials?.webhookId) throw new AppError("not_found", "No PayPal webhook is set up for this shop.");
  const check = Object.fromEntries(
    Object.entries(HEADERS).map(([field, header]) => [field, headers.get(header) ?? ""]),
  );
  if (Object.values(check).some((v) => !v)) throw new AppError("unauthenticated", "PayPal signature headers missing.");
  let verified: boolean;
  try {
    verified = await verifyWebhookSignature(
      credentials,
      { ...(check as Record<keyof typeof HEADERS, string>), webhook_id: credentials.webhookId },
      raw,
    );
  } catch (error) {
    if (error instanceof PaypalError) throw new AppError("unavailable", "PayPal could not verify the webhook now.");
    throw error;
  }
  if (!verified) throw new AppError("unauthenticated", "The webhook signature did not verify.");

  if (!event.event_type?.startsWith("PAYMENT.PAYOUTS-ITEM.") || !event.resource) {
    return { received: true, applied: "ignored" as const };
  }
  const applied = await db.$transaction((tx) => applyPaypalItem(tx, shopId, itemUpdateOf(event.resource!)));
  return { received: true, applied };
}
