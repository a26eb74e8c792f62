import { z } from "zod";
import { keyedErrorMap, msg } from "../../i18n/messages";
import { formatDecimalInput, parseDecimalInput } from "../../lib/decimal-input";
import { fieldErrorsFromZod, type FieldErrors } from "../../lib/errors";

// The bonus rule form, checked in the browser (instant messages) and in the
// route action (the authority). Merchants type amounts in the shop currency
// and percents with up to 2 decimals; stored as minor units and basis points.

export const BONUS_KINDS = ["target", "recurring", "booster"] as const;
export const BONUS_METRICS = ["sales", "revenue", "commission"] as const;
export const BONUS_PERIODS = ["weekly", "monthly", "quarterly"] as const;
export const REWARD_TYPES = ["fixed", "percent"] as const;
export const BONUS_STATUSES = ["active", "paused"] as const;

const MAX_MONEY = 100_000_000_00;
const MAX_COUNT = 10_000_000;
const MAX_BPS = 100_00;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, msg("Bonuses:validation.date"));

export const bonusFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, msg("Bonuses:validation.name"))
    .max(100, msg("Global:validation.textMax", { max: 100 })),
  kind: z.enum(BONUS_KINDS),
  campaign_id: z.string().max(200),
  metric: z.enum(BONUS_METRICS),
  threshold: z.string().max(40),
  period: z.enum(BONUS_PERIODS),
  reward_type: z.enum(REWARD_TYPES),
  reward_value: z.string().max(40),
  starts_on: day,
  ends_on: z.union([z.literal(""), day]),
  status: z.enum(BONUS_STATUSES),
});

export type BonusForm = z.infer<typeof bonusFormSchema>;

export interface BonusRuleData {
  name: string;
  kind: (typeof BONUS_KINDS)[number];
  campaignId: string | null;
  metric: (typeof BONUS_METRICS)[number];
  threshold: number;
  period: (typeof BONUS_PERIODS)[number];
  rewardType: (typeof REWARD_TYPES)[number];
  rewardValue: number;
  startsOn: string;
  endsOn: string | null;
  status: (typeof BONUS_STATUSES)[number];
}

export type BonusFormResult = { ok: true; data: BonusRuleData } | { ok: false; fields: FieldErrors };

export function emptyBonusForm(today: string): BonusForm {
  return {
    name: "",
    kind: "recurring",
    campaign_id: "",
    metric: "sales",
    threshold: "10",
    period: "monthly",
    reward_type: "fixed",
    reward_value: "50",
    starts_on: today,
    ends_on: "",
    status: "active",
  };
}

export function bonusToForm(rule: BonusRuleData, exponent: number): BonusForm {
  const isCount = rule.metric === "sales";
  const rewardIsPercent = rule.rewardType === "percent";
  return {
    name: rule.name,
    kind: rule.kind,
    campaign_id: rule.campaignId ?? "",
    metric: rule.metric,
    threshold: isCount ? String(rule.threshold) : formatDecimalInput(rule.threshold, exponent),
    period: rule.period,
    reward_type: rule.rewardType,
    reward_value: rewardIsPercent
      ? formatDecimalInput(rule.rewardValue, 2)
      : formatDecimalInput(rule.rewardValue, exponent),
    starts_on: rule.startsOn,
    ends_on: rule.endsOn ?? "",
    status: rule.status,
  };
}

/** Parses the form into a rule, or field errors (translation keys). */
export function parseBonusForm(raw: unknown, exponent: number): BonusFormResult {
  const shape = bonusFormSchema.safeParse(raw, { errorMap: keyedErrorMap });
  if (!shape.success) return { ok: false, fields: fieldErrorsFromZod(shape.error.issues) };
  const f = shape.data;
  const fields: FieldErrors = {};
  const threshold =
    f.metric === "sales"
      ? parseDecimalInput(f.threshold, 0, MAX_COUNT)
      : parseDecimalInput(f.threshold, exponent, MAX_MONEY);
  if (!threshold.ok) fields.threshold = threshold.message;
  // A booster is always an extra rate.
  const rewardType = f.kind === "booster" ? "percent" : f.reward_type;
  const reward =
    rewardType === "percent"
      ? parseDecimalInput(f.reward_value, 2, MAX_BPS)
      : parseDecimalInput(f.reward_value, exponent, MAX_MONEY);
  if (!reward.ok) fields.reward_value = reward.message;
  else if (reward.value <= 0) fields.reward_value = msg("Bonuses:validation.positive");
  if (f.kind === "target" && !f.ends_on) fields.ends_on = msg("Bonuses:validation.endRequired");
  if (f.ends_on && f.ends_on < f.starts_on) fields.ends_on = msg("Bonuses:validation.endBeforeStart");
  if (Object.keys(fields).length || !threshold.ok || !reward.ok) return { ok: false, fields };
  return {
    ok: true,
    data: {
      name: f.name,
      kind: f.kind,
      campaignId: f.campaign_id || null,
      metric: f.metric,
      threshold: threshold.value,
      period: f.period,
      rewardType,
      rewardValue: reward.value,
      startsOn: f.starts_on,
      endsOn: f.ends_on || null,
      status: f.status,
    },
  };
}
