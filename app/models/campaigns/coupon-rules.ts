import { z } from "zod";
import { msg } from "../../i18n/messages";

// A campaign's coupon rules, written once: the REST API's coupon object
// (campaign-schemas.ts: snake_case, stored units) and Settings › Marketings'
// form (marketings/coupon-form.ts: camelCase, the amount as typed) both check
// with these. Messages are translation keys (the API's door sends their English).

const MAX_PERCENT_BPS = 10_000;

/** The prefix of the affiliates' codes: up to 20 letters, digits, - or _. */
export const couponPrefixSchema = () =>
  z
    .string()
    .trim()
    .max(20, msg("Global:validation.textMax", { max: 20 }))
    .regex(/^[A-Za-z0-9_-]*$/, msg("Campaigns:validation.prefix"));

/**
 * The check across fields, on the stored value (basis points for a
 * percentage, minor units for a fixed amount): at most 100 %, and an enabled
 * coupon gives something.
 */
export function couponValueIssue(coupon: { enabled: boolean; discountType: string; stored: number }): string | null {
  if (coupon.discountType === "percentage" && coupon.stored > MAX_PERCENT_BPS)
    return msg("Campaigns:validation.percentMax");
  if (coupon.enabled && coupon.stored === 0) return msg("Campaigns:validation.discount");
  return null;
}
