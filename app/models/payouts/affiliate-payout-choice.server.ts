import type { Db } from "../../db.server";
import { chunks } from "../../lib/chunks";
import type { Tx } from "../../db/transaction";
import { openSecret, sealSecret } from "../../lib/secret-box.server";
import { paymentSettingsOf, type PaymentSettings } from "./payment-settings";
import { bankDetailsComplete, bankDetailsMask, type BankDetail, type PayoutChoice } from "./payout-choice";
import { chosenMethod, resolvePayoutMethod, type MethodSource } from "./payout-method-for";
import type { PayoutMethod } from "./payout-states";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { storedPayoutCurrency, type PayoutCurrencyForm } from "./payout-currency-choice";

// The affiliate's payout choice at rest: the method and PayPal address in
// plain columns, the bank details sealed (AES-256-GCM, bound to the shop and
// the affiliate) with a masked hint beside them, so lists and screens never
// need the key and never hold more than the last four characters.

const owner = (shopId: string, affiliateId: string) => `${shopId}:affiliate:${affiliateId}`;

export const choiceSelect = {
  id: true,
  payoutMethod: true,
  paypalEmail: true,
  payoutDetails: true,
  payoutDetailsMask: true,
  payoutCurrency: true,
} as const;

type ChoiceRow = {
  id: string;
  payoutCurrency?: string | null;
  payoutMethod: string | null;
  paypalEmail: string | null;
  payoutDetails: string | null;
  payoutDetailsMask: string | null;
};

/** The saved bank details in plain text (only for the merchant's explicit "show" and the affiliate's check). */
export function openBankDetails(shopId: string, row: Pick<ChoiceRow, "id" | "payoutDetails">): BankDetail[] | null {
  if (!row.payoutDetails) return null;
  try {
    const parsed: unknown = JSON.parse(openSecret(row.payoutDetails, owner(shopId, row.id)));
    return Array.isArray(parsed) ? (parsed as BankDetail[]) : null;
  } catch {
    // A changed key or a tampered value: as good as none (the affiliate enters them again).
    return null;
  }
}

export async function saveAffiliatePayoutChoice(
  client: Db | Tx,
  shopId: string,
  affiliateId: string,
  choice: PayoutChoice,
) {
  const data =
    choice.method === "paypal"
      ? { payoutMethod: "paypal", paypalEmail: choice.paypalEmail }
      : choice.method === "store_credit" || choice.method === "gift_card"
        ? { payoutMethod: choice.method }
        : choice.details
          ? {
              payoutMethod: "bank",
              payoutDetails: sealSecret(JSON.stringify(choice.details), owner(shopId, affiliateId)),
              payoutDetailsMask: bankDetailsMask(choice.details),
            }
          : { payoutMethod: "bank" };
  await client.affiliate.updateMany({ where: { id: affiliateId, shopId }, data });
}

export interface AffiliateMethodView {
  /** What the affiliate chose (null: nothing). */
  chosen: string | null;
  /** What pays them now, and why. */
  method: PayoutMethod;
  source: MethodSource;
  /** The masked hint of what the method pays to (a PayPal address stays whole: it is a login, not an account number). */
  detail: string | null;
}

/** How one affiliate is paid now under the shop's settings, for the screens. */
export function affiliateMethodView(
  row: Omit<ChoiceRow, "payoutDetails" | "id">,
  settings: Pick<PaymentSettings, "affiliateMethods" | "defaultMethod">,
): AffiliateMethodView {
  const { method, source } = resolvePayoutMethod(row, settings);
  const detail =
    method === "paypal"
      ? row.paypalEmail
      : source === "choice" && row.payoutMethod === "bank"
        ? row.payoutDetailsMask
        : null;
  return { chosen: chosenMethod(row), method, source, detail };
}

/** The affiliate's own view of their choice (/account/payouts): no plain bank details leave the server. */
export async function loadAffiliatePayoutChoice(client: Db | Tx, shopId: string, affiliateId: string) {
  const [row, shop] = await Promise.all([
    client.affiliate.findFirstOrThrow({ where: { id: affiliateId, shopId }, select: choiceSelect }),
    client.shop.findUniqueOrThrow({ where: { id: shopId }, select: { settings: true } }),
  ]);
  const settings = paymentSettingsOf(shop.settings);
  return {
    settings,
    view: affiliateMethodView(row, settings),
    payoutCurrency: row.payoutCurrency ?? null,
    paypalEmail: row.paypalEmail ?? "",
    bankMask: row.payoutDetailsMask,
    bankComplete: bankDetailsComplete(openBankDetails(shopId, row), settings),
  };
}

/**
 * The method each affiliate is paid by now, for making payouts (the Pay
 * dialog's "each affiliate's choice", the REST API, auto-pay).
 */
export async function methodsOfAffiliates(
  client: Db | Tx,
  shopId: string,
  affiliateIds: string[],
  settings: PaymentSettings,
): Promise<Map<string, { method: PayoutMethod; source: MethodSource }>> {
  const out = new Map<string, { method: PayoutMethod; source: MethodSource }>();
  const unique = [...new Set(affiliateIds)];
  for (const part of chunks(unique, 500)) {
    const rows = await client.affiliate.findMany({
      where: { shopId, id: { in: part } },
      select: { id: true, payoutMethod: true, paypalEmail: true },
    });
    for (const row of rows) out.set(row.id, resolvePayoutMethod(row, settings));
  }
  return out;
}

/**
 * The currency the affiliate asks to be paid in (ADR 052). One not offered
 * is refused and nothing changes; a payout already on its way keeps the
 * currency it was converted to.
 */
export async function saveAffiliatePayoutCurrency(
  client: Db | Tx,
  shopId: string,
  affiliateId: string,
  form: PayoutCurrencyForm,
) {
  const shop = await client.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { currency: true, settings: true },
  });
  const stored = storedPayoutCurrency(
    form.payoutCurrency,
    shop.currency,
    paymentSettingsOf(shop.settings).payoutCurrencies,
  );
  if (stored === undefined) {
    throw new AppError("validation_failed", msg("Global:validation.choose"), {
      fields: { payoutCurrency: msg("Global:validation.choose") },
    });
  }
  await client.affiliate.updateMany({ where: { id: affiliateId, shopId }, data: { payoutCurrency: stored } });
}
