// The discount an affiliate's automatic coupon gives, from the campaign's
// coupon settings (a pure mapping to Shopify's DiscountCodeBasicInput).

export interface CouponTemplate {
  couponDiscountType: string; // percentage | fixed_amount
  couponDiscountValue: number; // basis points, or minor units
  couponPrefix: string;
  couponOncePerCustomer: boolean;
}

/** The code: the campaign's prefix and the affiliate's referral code, upper-cased. */
export function couponCode(prefix: string, referralCode: string): string {
  return `${prefix}${referralCode}`.toUpperCase().replace(/\s+/g, "").slice(0, 255);
}

/** A minor-unit amount as Shopify's decimal string ("12.50"), for a currency with `digits` decimals. */
export function decimalAmount(minor: number, digits = 2): string {
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, "0")}`;
}

export function discountInput(template: CouponTemplate, code: string, title: string, currencyDigits = 2) {
  const value =
    template.couponDiscountType === "fixed_amount"
      ? {
          discountAmount: {
            amount: decimalAmount(template.couponDiscountValue, currencyDigits),
            appliesOnEachItem: false,
          },
        }
      : { percentage: Math.min(10_000, Math.max(0, template.couponDiscountValue)) / 10_000 };
  return {
    title,
    code,
    startsAt: new Date().toISOString(),
    appliesOncePerCustomer: template.couponOncePerCustomer,
    context: { all: "ALL" as const },
    customerGets: { value, items: { all: true as const } },
  };
}
