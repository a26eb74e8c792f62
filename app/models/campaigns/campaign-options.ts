// The choices a campaign is made of: its state, how commissions are computed
// (per order or item, per level, per product or collection rule) and the
// coupon discount it hands out.
export const CAMPAIGN_STATUSES = ["active", "draft", "private"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const COMMISSION_TYPES = ["percent", "flat_item", "flat_order"] as const;
export const LEVEL_BASES = ["percent_of_sale", "percent_of_commission"] as const;
export const RULE_TARGETS = ["product", "collection"] as const;
export const RULE_KINDS = ["rate", "exclude"] as const;
export const RULE_COMMISSION_TYPES = ["percent", "flat_item"] as const;
export const COUPON_DISCOUNT_TYPES = ["percentage", "fixed_amount"] as const;
