import { z } from "zod";
import { keyedErrorMap } from "../../i18n/messages";
import { formatDecimalInput, parseDecimalInput, type DecimalParse } from "../../lib/decimal-input";
import { fieldErrorsFromZod, type FieldErrors } from "../../lib/errors";
import {
  ADVOCATE_REWARD_KINDS,
  CODE_MODES,
  FRIEND_REWARD_TYPES,
  referralProgramSchema,
  type ReferralProgram,
} from "./program-settings";

// The program settings screen's form: one flat object of what the merchant
// types (amounts in the shop currency like "5.00", percents like "12.5",
// whole numbers as text), checked in the browser and by the action with the
// same code. It becomes a ReferralProgram (minor units, basis points) through
// programFromForm, whose rules are referralProgramSchema's; a nested error of
// that schema is reported on the flat field that typed it.

const MAX_MINOR = 100_000_000;
const MAX_BPS = 10_000;
const MAX_WHOLE = 1_000_000;
const numberText = z.string().max(40);

export const WIDGET_POSITIONS = ["bottom-right", "bottom-left"] as const;

export const referralProgramFormSchema = z
  .object({
    enabled: z.boolean(),
    whoCanRefer: z.enum(["anyone", "customers"]),
    codeMode: z.enum(CODE_MODES),
    friendType: z.enum(FRIEND_REWARD_TYPES),
    friendValue: numberText,
    friendMinimumOrder: numberText,
    friendFirstOrderOnly: z.boolean(),
    friendExpiryDays: numberText,
    advocateKind: z.enum(ADVOCATE_REWARD_KINDS),
    advocateType: z.enum(["percentage", "fixed_amount"]),
    advocateValue: numberText,
    holdDays: numberText,
    burstThreshold: numberText,
    burstMinutes: numberText,
    blockExistingCustomers: z.boolean(),
    couponSiteThreshold: numberText,
    widgetPosition: z.enum(WIDGET_POSITIONS),
    widgetColor: z.string().max(40),
    widgetTextColor: z.string().max(40),
    widgetButtonText: z.string().max(400),
    widgetTitle: z.string().max(400),
    widgetDescription: z.string().max(1000),
    widgetFriendTitle: z.string().max(400),
    widgetFriendDescription: z.string().max(1000),
  })
  .strict();

export type ReferralProgramForm = z.infer<typeof referralProgramFormSchema>;
export type ReferralProgramFormField = keyof ReferralProgramForm;

/** Where each nested field of the program is typed in the form. */
const FIELD_OF: Record<string, ReferralProgramFormField> = {
  enabled: "enabled",
  whoCanRefer: "whoCanRefer",
  codeMode: "codeMode",
  "friendReward.type": "friendType",
  "friendReward.value": "friendValue",
  "friendReward.minimumOrder": "friendMinimumOrder",
  "friendReward.firstOrderOnly": "friendFirstOrderOnly",
  "friendReward.expiryDays": "friendExpiryDays",
  "advocateReward.kind": "advocateKind",
  "advocateReward.type": "advocateType",
  "advocateReward.value": "advocateValue",
  holdDays: "holdDays",
  "fraud.burstThreshold": "burstThreshold",
  "fraud.burstMinutes": "burstMinutes",
  "fraud.blockExistingCustomers": "blockExistingCustomers",
  "fraud.couponSiteThreshold": "couponSiteThreshold",
  "widget.position": "widgetPosition",
  "widget.color": "widgetColor",
  "widget.textColor": "widgetTextColor",
  "widget.buttonText": "widgetButtonText",
  "widget.title": "widgetTitle",
  "widget.description": "widgetDescription",
  "widget.friendTitle": "widgetFriendTitle",
  "widget.friendDescription": "widgetFriendDescription",
};

/** Is the friend's reward typed as a percentage (else an amount, or nothing for free shipping)? */
export const friendValueIsPercent = (f: Pick<ReferralProgramForm, "friendType">) => f.friendType === "percentage";
export const advocateValueIsPercent = (f: Pick<ReferralProgramForm, "advocateKind" | "advocateType">) =>
  f.advocateKind === "discount_code" && f.advocateType === "percentage";

export function programToForm(p: ReferralProgram, exponent: number): ReferralProgramForm {
  return {
    enabled: p.enabled,
    whoCanRefer: p.whoCanRefer,
    codeMode: p.codeMode,
    friendType: p.friendReward.type,
    friendValue:
      p.friendReward.type === "free_shipping"
        ? ""
        : formatDecimalInput(p.friendReward.value, p.friendReward.type === "percentage" ? 2 : exponent),
    friendMinimumOrder: formatDecimalInput(p.friendReward.minimumOrder, exponent),
    friendFirstOrderOnly: p.friendReward.firstOrderOnly,
    friendExpiryDays: String(p.friendReward.expiryDays),
    advocateKind: p.advocateReward.kind,
    advocateType: p.advocateReward.type,
    advocateValue: formatDecimalInput(
      p.advocateReward.value,
      p.advocateReward.kind === "discount_code" && p.advocateReward.type === "percentage" ? 2 : exponent,
    ),
    holdDays: String(p.holdDays),
    burstThreshold: String(p.fraud.burstThreshold),
    burstMinutes: String(p.fraud.burstMinutes),
    blockExistingCustomers: p.fraud.blockExistingCustomers,
    couponSiteThreshold: String(p.fraud.couponSiteThreshold),
    widgetPosition: p.widget.position,
    widgetColor: p.widget.color,
    widgetTextColor: p.widget.textColor,
    widgetButtonText: p.widget.buttonText,
    widgetTitle: p.widget.title,
    widgetDescription: p.widget.description,
    widgetFriendTitle: p.widget.friendTitle ?? "",
    widgetFriendDescription: p.widget.friendDescription ?? "",
  };
}

export type ProgramFormResult = { ok: true; program: ReferralProgram } | { ok: false; fields: FieldErrors };

/** The form as a program, or field errors (translation keys) on the form's own field names. */
export function programFromForm(raw: unknown, exponent: number): ProgramFormResult {
  const shape = referralProgramFormSchema.safeParse(raw, { errorMap: keyedErrorMap });
  if (!shape.success) return { ok: false, fields: fieldErrorsFromZod(shape.error.issues) };
  const f = shape.data;
  const fields: FieldErrors = {};
  const read = (field: ReferralProgramFormField, parsed: DecimalParse): number => {
    if (parsed.ok) return parsed.value;
    fields[field] ??= parsed.message;
    return 0;
  };
  const money = (field: ReferralProgramFormField, text: string, emptyIsZero = false) =>
    read(field, parseDecimalInput(emptyIsZero && !text.trim() ? "0" : text, exponent, MAX_MINOR));
  const percent = (field: ReferralProgramFormField, text: string) => read(field, parseDecimalInput(text, 2, MAX_BPS));
  const whole = (field: ReferralProgramFormField, text: string, emptyIsZero = false) =>
    read(field, parseDecimalInput(emptyIsZero && !text.trim() ? "0" : text, 0, MAX_WHOLE));

  const program = {
    enabled: f.enabled,
    whoCanRefer: f.whoCanRefer,
    codeMode: f.codeMode,
    friendReward: {
      type: f.friendType,
      value:
        f.friendType === "free_shipping"
          ? 0
          : friendValueIsPercent(f)
            ? percent("friendValue", f.friendValue)
            : money("friendValue", f.friendValue),
      minimumOrder: money("friendMinimumOrder", f.friendMinimumOrder, true),
      firstOrderOnly: f.friendFirstOrderOnly,
      expiryDays: whole("friendExpiryDays", f.friendExpiryDays, true),
    },
    advocateReward: {
      kind: f.advocateKind,
      type: f.advocateType,
      value: advocateValueIsPercent(f)
        ? percent("advocateValue", f.advocateValue)
        : money("advocateValue", f.advocateValue),
    },
    holdDays: whole("holdDays", f.holdDays),
    fraud: {
      burstThreshold: whole("burstThreshold", f.burstThreshold),
      burstMinutes: whole("burstMinutes", f.burstMinutes),
      blockExistingCustomers: f.blockExistingCustomers,
      couponSiteThreshold: whole("couponSiteThreshold", f.couponSiteThreshold),
    },
    widget: {
      position: f.widgetPosition,
      color: f.widgetColor,
      textColor: f.widgetTextColor,
      buttonText: f.widgetButtonText,
      title: f.widgetTitle,
      description: f.widgetDescription,
      friendTitle: f.widgetFriendTitle,
      friendDescription: f.widgetFriendDescription,
    },
  };
  const checked = referralProgramSchema.safeParse(program, { errorMap: keyedErrorMap });
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = FIELD_OF[issue.path.join(".")];
      // A number that did not parse keeps its own message.
      if (field) fields[field] ??= issue.message;
      else fields._ ??= issue.message;
    }
  }
  if (Object.keys(fields).length || !checked.success) return { ok: false, fields };
  return { ok: true, program: checked.data };
}

/**
 * The form's schema for the settings hook: the same shape, refined with the
 * conversion above so the browser shows the messages the server would.
 */
export function referralProgramFormCheck(exponent: number) {
  return referralProgramFormSchema.superRefine((form, ctx) => {
    const result = programFromForm(form, exponent);
    if (result.ok) return;
    for (const [path, message] of Object.entries(result.fields))
      ctx.addIssue({ code: "custom", path: path === "_" ? [] : [path], message });
  });
}
