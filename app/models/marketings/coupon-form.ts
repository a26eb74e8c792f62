import { z } from "zod";
import { msg } from "../../i18n/messages";
import { COUPON_DISCOUNT_TYPES } from "../campaigns/campaign-options";
import { couponPrefixSchema, couponValueIssue } from "../campaigns/coupon-rules";

// Settings › Marketings: one campaign's coupon settings (the discount its
// affiliates' automatic codes give), checked by the campaign's coupon rules
// (campaigns/coupon-rules.ts, shared with the REST API). One schema for the form and the action;
// the amount stays the text the merchant typed here and becomes basis points
// or minor units on the server, where the shop's currency is known.

const DECIMAL = /^\d{1,9}(?:[.,]\d{1,2})?$/;

export const couponFields = z
  .object({
    campaignId: z.string().min(1, msg("Global:validation.choose")).max(200),
    enabled: z.boolean(),
    discountType: z.enum(COUPON_DISCOUNT_TYPES),
    value: z
      .string()
      .trim()
      .max(20, msg("Global:validation.textMax", { max: 20 })),
    prefix: couponPrefixSchema(),
    oncePerCustomer: z.boolean(),
  })
  .strict();

/** The checks across fields (the action's union schema runs them too). */
export function checkCouponValue(
  form: { enabled: boolean; discountType: string; value: string },
  ctx: z.RefinementCtx,
) {
  if (!DECIMAL.test(form.value)) {
    ctx.addIssue({
      code: "custom",
      path: ["value"],
      message: msg("Campaigns:validation.decimal", { example: "12.5" }),
    });
    return;
  }
  // In stored units: a percentage has two decimals; for a fixed amount only
  // "is it zero" is checked here (the currency's decimals are the server's).
  const stored = couponValueStored(form.discountType, form.value, 2) ?? 0;
  const issue = couponValueIssue({ enabled: form.enabled, discountType: form.discountType, stored });
  if (issue) ctx.addIssue({ code: "custom", path: ["value"], message: issue });
}

export const couponFormSchema = couponFields.superRefine(checkCouponValue);

export type CouponForm = z.infer<typeof couponFormSchema>;

/** The stored value (basis points, or minor units with `exponent` decimals) as the form shows it. */
export function couponValueText(discountType: string, stored: number, exponent: number): string {
  const decimals = discountType === "percentage" ? 2 : exponent;
  if (decimals === 0) return String(stored);
  const unit = 10 ** decimals;
  const fraction = String(stored % unit)
    .padStart(decimals, "0")
    .replace(/0+$/, "");
  return fraction ? `${Math.floor(stored / unit)}.${fraction}` : String(Math.floor(stored / unit));
}

/** The form's value in stored units; null when it has more decimals than the currency has. */
export function couponValueStored(discountType: string, text: string, exponent: number): number | null {
  const decimals = discountType === "percentage" ? 2 : exponent;
  const [whole, fraction = ""] = text.trim().replace(",", ".").split(".");
  if (fraction.length > decimals) return null;
  return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, "0") || "0");
}
