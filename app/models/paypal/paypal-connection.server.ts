import { getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import { PaypalError, requestToken, type PaypalCredentials, type PaypalMode } from "./paypal-client.server";
import type { PaypalConnectionInput } from "./paypal-connection-schema";
import { openSecret, sealSecret } from "../../lib/secret-box.server";

// The shop's PayPal REST app: connected only once PayPal gave a token for
// the credentials. The secret is sealed (secret-box.server.ts) before it is
// stored and never leaves the server: what routes return is PaypalConnectionView.

export interface PaypalConnectionView {
  connected: boolean;
  mode: PaypalMode | null;
  client_id: string | null;
  /** PayPal's id of the REST app the credentials belong to. */
  app_id: string | null;
  /** Whether the app may send payouts (its token's scope names Payouts). */
  payouts_scope: boolean;
  webhook_id: string | null;
  verified_at: string | null;
}

const PAYOUTS_SCOPE = "https://uri.paypal.com/payments/payouts";

interface AccountInfo {
  app_id?: string;
  scope?: string;
}

function view(
  row: {
    mode: string;
    clientId: string;
    accountInfo: string;
    webhookId: string | null;
    verifiedAt: Date | null;
  } | null,
): PaypalConnectionView {
  if (!row) {
    return {
      connected: false,
      mode: null,
      client_id: null,
      app_id: null,
      payouts_scope: false,
      webhook_id: null,
      verified_at: null,
    };
  }
  const info = safeJson(row.accountInfo);
  return {
    connected: row.verifiedAt !== null,
    mode: row.mode === "live" ? "live" : "sandbox",
    client_id: row.clientId,
    app_id: info.app_id ?? null,
    payouts_scope: (info.scope ?? "").split(/\s+/).includes(PAYOUTS_SCOPE),
    webhook_id: row.webhookId,
    verified_at: row.verifiedAt?.toISOString() ?? null,
  };
}

function safeJson(text: string): AccountInfo {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as AccountInfo) : {};
  } catch {
    return {};
  }
}

export async function getPaypalConnection(db: ShopDb): Promise<PaypalConnectionView> {
  return view(await db.paypalConnection.findFirst());
}

/**
 * Verifies the credentials with PayPal (POST /v1/oauth2/token) and stores
 * them. Credentials PayPal refuses change nothing (422); PayPal out of reach
 * is 503, also changing nothing.
 */
export async function connectPaypal(db: ShopDb, input: PaypalConnectionInput): Promise<PaypalConnectionView> {
  let token;
  try {
    token = await requestToken({ mode: input.mode, clientId: input.client_id, clientSecret: input.client_secret });
  } catch (error) {
    if (error instanceof PaypalError && error.status !== null && error.status >= 400 && error.status < 500) {
      throw new AppError("validation_failed", msg("Settings.Payment:paypal.errors.refused"), {
        fields: { client_secret: msg("Settings.Payment:paypal.errors.refused") },
      });
    }
    throw new AppError("unavailable", msg("Settings.Payment:paypal.errors.unreachable"));
  }
  const data = {
    mode: input.mode,
    clientId: input.client_id,
    secretEncrypted: sealSecret(input.client_secret, db.$shopId),
    accountInfo: JSON.stringify({ app_id: token.app_id ?? null, scope: token.scope ?? "" }),
    webhookId: input.webhook_id,
    verifiedAt: new Date(),
  };
  const row = await db.paypalConnection.upsert({
    where: { shopId: db.$shopId },
    create: { shopId: db.$shopId, ...data },
    update: data,
  });
  return view(row);
}

export async function disconnectPaypal(db: ShopDb): Promise<PaypalConnectionView> {
  await db.paypalConnection.deleteMany({});
  return view(null);
}

/** The shop's credentials for a call to PayPal (server side only); null when not connected. */
export async function paypalCredentials(
  db: Db,
  shopId: string,
): Promise<(PaypalCredentials & { webhookId: string | null }) | null> {
  const row = await db.paypalConnection.findUnique({ where: { shopId } });
  if (!row || !row.verifiedAt) return null;
  return {
    mode: row.mode === "live" ? "live" : "sandbox",
    clientId: row.clientId,
    clientSecret: openSecret(row.secretEncrypted, shopId),
    webhookId: row.webhookId,
  };
}

/** Where PayPal sends this shop's webhooks (the merchant adds it to the REST app in PayPal). */
export function paypalWebhookUrl(shopId: string): string {
  return `${getConfig().appUrl}/webhooks/paypal/${encodeURIComponent(shopId)}`;
}
