import { z } from "zod";
import { msg } from "../../i18n/messages";

// The affiliate's payout currency (/account/payouts): the shop's own or one
// Settings › Payment allows (ADR 052). Pure: the page and the server read the
// same schema; the server checks it against the shop's list of the moment.

export const payoutCurrencyFormSchema = z
  .object({
    payoutCurrency: z
      .string({ required_error: msg("Global:validation.choose") })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, msg("Global:validation.choose")),
  })
  .strict();
export type PayoutCurrencyForm = z.infer<typeof payoutCurrencyFormSchema>;

/** What the affiliate may pick: the shop's currency first, then the allowed ones. */
export function payoutCurrencyOptions(shopCurrency: string, allowed: readonly string[]): string[] {
  return [shopCurrency, ...allowed.filter((c) => c !== shopCurrency)];
}

/** The stored value: null for the shop's currency; undefined when the pick is not offered. */
export function storedPayoutCurrency(
  pick: string,
  shopCurrency: string,
  allowed: readonly string[],
): string | null | undefined {
  if (pick === shopCurrency) return null;
  return allowed.includes(pick) ? pick : undefined;
}
