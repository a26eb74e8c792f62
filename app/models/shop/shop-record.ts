// The shop record as the client reads it (spec section 3): url, version,
// created_at, configuration.admin_email, configuration.plan_name,
// pricing.plan, pricing.needSelectPlan, setting.general.language.

export interface ShopRow {
  id: string;
  domain: string;
  name: string;
  url: string;
  appVersion: string;
  adminEmail: string;
  shopifyPlan: string | null;
  pricingPlan: string | null;
  needSelectPlan: boolean | null;
  language: string;
  currency: string;
  moneyFormat: string;
  timezone: string;
  referralParam: string;
  createdAt: Date;
}

export interface ShopRecord {
  id: string;
  domain: string;
  name: string;
  url: string;
  version: string;
  created_at: string;
  currency: string;
  money_format: string;
  timezone: string;
  configuration: { admin_email: string; plan_name: string | null };
  // Absent when the shop has no pricing info at all.
  pricing?: { plan: string | null; needSelectPlan?: boolean };
  setting: { general: { language: string; referral_param: string } };
}

export function toShopRecord(shop: ShopRow): ShopRecord {
  const hasPricing = shop.pricingPlan !== null || shop.needSelectPlan !== null;
  return {
    id: shop.id,
    domain: shop.domain,
    name: shop.name,
    url: shop.url,
    version: shop.appVersion,
    created_at: shop.createdAt.toISOString(),
    currency: shop.currency,
    money_format: shop.moneyFormat,
    timezone: shop.timezone,
    configuration: { admin_email: shop.adminEmail, plan_name: shop.shopifyPlan },
    ...(hasPricing
      ? {
          pricing: {
            plan: shop.pricingPlan,
            ...(shop.needSelectPlan !== null ? { needSelectPlan: shop.needSelectPlan } : {}),
          },
        }
      : {}),
    setting: { general: { language: shop.language, referral_param: shop.referralParam } },
  };
}

/** Spec: "When the shop pricing.needSelectPlan is defined" the plan screen is forced. */
export function mustSelectPlan(record: Pick<ShopRecord, "pricing">): boolean {
  return record.pricing?.needSelectPlan !== undefined;
}
