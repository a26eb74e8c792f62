import { z } from "zod";
import { formatDecimalInput, parseDecimalInput } from "../../lib/decimal-input";
import { keyedErrorMap, messageRef, msg } from "../../i18n/messages";
import { fieldErrorsFromZod, type FieldErrors } from "../../lib/errors";
import { MAX_BPS, MAX_FLAT, campaignCreateSchema, type CampaignCreate, type CampaignOut } from "./campaign-schemas";
import {
  CAMPAIGN_STATUSES,
  COMMISSION_TYPES,
  COUPON_DISCOUNT_TYPES,
  LEVEL_BASES,
  RULE_COMMISSION_TYPES,
  RULE_KINDS,
  RULE_TARGETS,
} from "./campaign-options";
import { RENEWAL_COMMISSION_TYPES, RENEWAL_POLICIES } from "../subscriptions/renewal-policy";

// The campaign form of the admin, used in the browser (instant messages) and
// in the route action (the authority). The merchant types percents with up
// to 2 decimals and amounts in the shop currency; this turns them into basis
// points and minor units, then the REST API's own schema checks the rest, so
// the admin and the API accept exactly the same campaigns. Field paths match
// the API's (commission_value, levels.0.rate, rules.1.target_gid, ...).
// Messages are translation keys (app/i18n/messages.ts), shown in the
// admin's language; the REST API sends the same rules' English.

export const MAX_LEVELS = 9; // levels 2..10
const PERCENT_DECIMALS = 2;

const text = z.string().max(200, msg("Global:validation.textMax", { max: 200 }));
const flag = z.boolean();

export const campaignFormSchema = z.object({
  name: z.string().max(1000),
  status: z.enum(CAMPAIGN_STATUSES),
  is_default: flag,
  commission_type: z.enum(COMMISSION_TYPES),
  commission_value: text,
  new_customer_enabled: flag,
  new_customer_value: text,
  cookie_days: text,
  auto_approve_affiliates: flag,
  auto_approve_orders: flag,
  approval_hold_days: text,
  lifetime_customer_link: flag,
  levels: z
    .array(z.object({ key: text, basis: z.enum(LEVEL_BASES), rate: text }))
    .max(MAX_LEVELS, msg("Campaigns:validation.levels", { max: MAX_LEVELS })),
  rules: z
    .array(
      z.object({
        key: text,
        target_type: z.enum(RULE_TARGETS),
        target: text,
        // What the picker showed; the form displays it, the API stores it.
        target_title: z.string().max(255).nullish(),
        target_image_url: z.string().max(2000).nullish(),
        kind: z.enum(RULE_KINDS),
        commission_type: z.enum(RULE_COMMISSION_TYPES),
        value: text,
      }),
    )
    .max(500, msg("Campaigns:validation.rules", { max: 500 })),
  coupon: z.object({
    enabled: flag,
    discount_type: z.enum(COUPON_DISCOUNT_TYPES),
    discount_value: text,
    prefix: text,
    once_per_customer: flag,
  }),
  // Absent (an older form): no renewals pay.
  renewals: z
    .object({
      policy: z.enum(RENEWAL_POLICIES),
      limit: text,
      own_rate: flag,
      commission_type: z.enum(RENEWAL_COMMISSION_TYPES),
      commission_value: text,
    })
    .default({ policy: "none", limit: "", own_rate: false, commission_type: "percent", commission_value: "" }),
});

export type CampaignFormValues = z.infer<typeof campaignFormSchema>;
export type CampaignFormResult = { ok: true; data: CampaignCreate } | { ok: false; fields: FieldErrors };

/** Percent-typed amounts are basis points; the others minor units of the shop currency. */
function amountUnit(isPercent: boolean, exponent: number) {
  return isPercent ? { decimals: PERCENT_DECIMALS, max: MAX_BPS } : { decimals: exponent, max: MAX_FLAT };
}

/** "123", "gid://shopify/Product/123" → the GID the API stores. */
export function toTargetGid(type: "product" | "collection", value: string): string {
  const trimmed = value.trim();
  const name = type === "product" ? "Product" : "Collection";
  return /^\d+$/.test(trimmed) ? `gid://shopify/${name}/${trimmed}` : trimmed;
}

export function parseCampaignForm(raw: unknown, currencyExponent: number): CampaignFormResult {
  const shape = campaignFormSchema.safeParse(raw, { errorMap: keyedErrorMap });
  if (!shape.success) return { ok: false, fields: fieldErrorsFromZod(shape.error.issues) };
  const form = shape.data;
  const fields: FieldErrors = {};
  const amount = (path: string, value: string, isPercent: boolean): number => {
    const unit = amountUnit(isPercent, currencyExponent);
    const parsed = parseDecimalInput(value, unit.decimals, unit.max);
    if (parsed.ok) return parsed.value;
    const tooBig = messageRef(parsed.message)?.key === "Global:validation.numberMax";
    fields[path] = isPercent && tooBig ? msg("Campaigns:validation.percentMax") : parsed.message;
    return 0;
  };
  const days = (path: string, value: string) => {
    const parsed = parseDecimalInput(value, 0, 365);
    if (parsed.ok) return parsed.value;
    fields[path] = parsed.message;
    return 0;
  };
  const isPercent = form.commission_type === "percent";
  const counted = form.renewals.policy === "orders" || form.renewals.policy === "months";
  const renewalLimit = () => {
    const parsed = parseDecimalInput(form.renewals.limit, 0, 1000);
    if (parsed.ok) return parsed.value;
    fields["renewals.limit"] = parsed.message;
    return null;
  };
  const candidate = {
    name: form.name,
    status: form.status,
    is_default: form.is_default,
    commission_type: form.commission_type,
    commission_value: amount("commission_value", form.commission_value, isPercent),
    new_customer_value: form.new_customer_enabled
      ? amount("new_customer_value", form.new_customer_value, isPercent)
      : null,
    cookie_days: days("cookie_days", form.cookie_days),
    auto_approve_affiliates: form.auto_approve_affiliates,
    auto_approve_orders: form.auto_approve_orders,
    approval_hold_days: form.auto_approve_orders ? days("approval_hold_days", form.approval_hold_days) : 0,
    lifetime_customer_link: form.lifetime_customer_link,
    levels: form.levels.map((level, index) => ({
      level: index + 2,
      basis: level.basis,
      rate: amount(`levels.${index}.rate`, level.rate, true),
    })),
    rules: form.rules.map((rule, index) => ({
      target_type: rule.target_type,
      target_gid: toTargetGid(rule.target_type, rule.target),
      target_title: rule.target_title ?? null,
      target_image_url: rule.target_image_url ?? null,
      kind: rule.kind,
      commission_type: rule.commission_type,
      value:
        rule.kind === "exclude" ? 0 : amount(`rules.${index}.value`, rule.value, rule.commission_type === "percent"),
    })),
    coupon: {
      enabled: form.coupon.enabled,
      discount_type: form.coupon.discount_type,
      discount_value: amount(
        "coupon.discount_value",
        form.coupon.discount_value,
        form.coupon.discount_type === "percentage",
      ),
      prefix: form.coupon.prefix,
      once_per_customer: form.coupon.once_per_customer,
    },
    renewals: {
      policy: form.renewals.policy,
      limit: counted ? renewalLimit() : null,
      commission_type: form.renewals.own_rate ? form.renewals.commission_type : null,
      commission_value: form.renewals.own_rate
        ? amount(
            "renewals.commission_value",
            form.renewals.commission_value,
            form.renewals.commission_type === "percent",
          )
        : null,
    },
  };
  const checked = campaignCreateSchema.safeParse(candidate, { errorMap: keyedErrorMap });
  if (!checked.success) {
    // The conversion's own messages speak in the units the merchant typed; keep them first.
    for (const [path, message] of Object.entries(fieldErrorsFromZod(checked.error.issues))) fields[path] ??= message;
  }
  if (Object.keys(fields).length || !checked.success) return { ok: false, fields };
  return { ok: true, data: checked.data };
}

let keys = 0;
/** A stable React key for a new row of levels or rules. */
export function rowKey(): string {
  keys += 1;
  return `row-${Date.now().toString(36)}-${keys}`;
}

export function emptyCampaignForm(makeDefault: boolean): CampaignFormValues {
  return {
    name: "",
    status: "draft",
    is_default: makeDefault,
    commission_type: "percent",
    commission_value: "10",
    new_customer_enabled: false,
    new_customer_value: "",
    cookie_days: "30",
    auto_approve_affiliates: false,
    auto_approve_orders: false,
    approval_hold_days: "0",
    lifetime_customer_link: false,
    levels: [],
    rules: [],
    coupon: { enabled: false, discount_type: "percentage", discount_value: "10", prefix: "", once_per_customer: true },
    renewals: { policy: "none", limit: "", own_rate: false, commission_type: "percent", commission_value: "" },
  };
}

/** A stored campaign as form values (what parseCampaignForm turns back into it). */
export function campaignToForm(campaign: CampaignOut, currencyExponent: number): CampaignFormValues {
  const show = (value: number, isPercent: boolean) =>
    formatDecimalInput(value, isPercent ? PERCENT_DECIMALS : currencyExponent);
  const isPercent = campaign.commission_type === "percent";
  return {
    name: campaign.name,
    status: campaign.status,
    is_default: campaign.is_default,
    commission_type: campaign.commission_type,
    commission_value: show(campaign.commission_value, isPercent),
    new_customer_enabled: campaign.new_customer_value !== null,
    new_customer_value: campaign.new_customer_value === null ? "" : show(campaign.new_customer_value, isPercent),
    cookie_days: String(campaign.cookie_days),
    auto_approve_affiliates: campaign.auto_approve_affiliates,
    auto_approve_orders: campaign.auto_approve_orders,
    approval_hold_days: String(campaign.approval_hold_days),
    lifetime_customer_link: campaign.lifetime_customer_link,
    levels: campaign.levels.map((level) => ({
      key: `level-${level.level}`,
      basis: level.basis,
      rate: show(level.rate, true),
    })),
    rules: campaign.rules.map((rule) => ({
      key: `rule-${rule.target_type}-${rule.target_gid}`,
      target_type: rule.target_type,
      target: rule.target_gid,
      target_title: rule.target_title,
      target_image_url: rule.target_image_url,
      kind: rule.kind,
      commission_type: rule.commission_type,
      value: rule.kind === "exclude" ? "" : show(rule.value, rule.commission_type === "percent"),
    })),
    coupon: {
      enabled: campaign.coupon.enabled,
      discount_type: campaign.coupon.discount_type,
      discount_value: show(campaign.coupon.discount_value, campaign.coupon.discount_type === "percentage"),
      prefix: campaign.coupon.prefix,
      once_per_customer: campaign.coupon.once_per_customer,
    },
    renewals: {
      policy: campaign.renewals.policy,
      limit: campaign.renewals.limit === null ? "" : String(campaign.renewals.limit),
      own_rate: campaign.renewals.commission_type !== null,
      commission_type: campaign.renewals.commission_type ?? "percent",
      commission_value:
        campaign.renewals.commission_value === null
          ? ""
          : show(campaign.renewals.commission_value, campaign.renewals.commission_type === "percent"),
    },
  };
}
