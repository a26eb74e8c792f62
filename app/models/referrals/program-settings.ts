import { z } from "zod";
import { msg } from "../../i18n/messages";
import { shopSettingsObject } from "../settings/shop-settings";

// The refer-a-friend program of a shop, kept in Shop.settings under
// "referrals" (docs/decisions/031). Pure: the settings form, the REST API, the
// storefront proxy, the order job and the reward job all read it through
// readReferralProgram, so a stored blob from an older version (or a damaged
// one) always comes back complete and valid.
//
// Amounts are integer minor units of the shop currency; percentages are basis
// points (1000 = 10 %). Texts left empty mean "the translated default" (the
// widget shows Referrals:widget.* in the visitor's language).

const minor = (max: number) => z.number().int().min(0).max(max);
const color = z
  .string()
  .trim()
  .regex(/^#[0-9a-f]{6}$/i, msg("Referrals:validation.color"));
const text = (max: number) => z.string().trim().max(max);

export const FRIEND_REWARD_TYPES = ["percentage", "fixed_amount", "free_shipping"] as const;
export const ADVOCATE_REWARD_KINDS = ["discount_code", "store_credit", "cash"] as const;
export const CODE_MODES = ["shared", "unique"] as const;

const friendReward = z
  .object({
    type: z.enum(FRIEND_REWARD_TYPES),
    // percentage: basis points (1..10000); fixed_amount: minor units; free_shipping: 0.
    value: minor(100_000_000),
    minimumOrder: minor(100_000_000),
    firstOrderOnly: z.boolean(),
    // Days a friend code stays valid after it is made; 0: no end.
    expiryDays: z.number().int().min(0).max(3650),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.type === "percentage" && (r.value < 1 || r.value > 10_000))
      ctx.addIssue({ code: "custom", path: ["value"], message: msg("Referrals:validation.percentage") });
    if (r.type === "fixed_amount" && r.value < 1)
      ctx.addIssue({ code: "custom", path: ["value"], message: msg("Referrals:validation.amount") });
  });

const advocateReward = z
  .object({
    kind: z.enum(ADVOCATE_REWARD_KINDS),
    // discount_code only: a percentage (basis points) or a fixed amount off.
    type: z.enum(["percentage", "fixed_amount"]),
    value: minor(100_000_000),
  })
  .strict()
  .superRefine((r, ctx) => {
    const percent = r.kind === "discount_code" && r.type === "percentage";
    if (percent && (r.value < 1 || r.value > 10_000))
      ctx.addIssue({ code: "custom", path: ["value"], message: msg("Referrals:validation.percentage") });
    if (!percent && r.value < 1)
      ctx.addIssue({ code: "custom", path: ["value"], message: msg("Referrals:validation.amount") });
  });

export const referralProgramSchema = z
  .object({
    enabled: z.boolean(),
    // anyone: every visitor who gives an e-mail; customers: only after a first purchase.
    whoCanRefer: z.enum(["anyone", "customers"]),
    // shared: one code per advocate for all friends; unique: a single-use code per friend.
    codeMode: z.enum(CODE_MODES),
    friendReward,
    advocateReward,
    // Days after the friend's order before the advocate's reward is given
    // (a refund or cancellation within them cancels it).
    holdDays: z.number().int().min(0).max(365),
    fraud: z
      .object({
        // Visits or orders from one IP address or device within burstMinutes
        // above which a referral is blocked.
        burstThreshold: z.number().int().min(2).max(10_000),
        burstMinutes: z.number().int().min(1).max(10_080),
        // A friend who has ordered before is not a new friend: block (true) or only flag.
        blockExistingCustomers: z.boolean(),
        // Referrals per advocate within 30 days above which the code is taken to
        // be posted on a coupon site (flagged; the merchant decides).
        couponSiteThreshold: z.number().int().min(2).max(100_000),
      })
      .strict(),
    widget: z
      .object({
        position: z.enum(["bottom-right", "bottom-left"]),
        color: color,
        textColor: color,
        buttonText: text(40),
        title: text(80),
        description: text(300),
        // The friend's popup (added after the first version: optional so a
        // stored program or an API client without them stays valid).
        friendTitle: text(80).optional(),
        friendDescription: text(300).optional(),
      })
      .strict(),
  })
  .strict();

export type ReferralProgram = z.infer<typeof referralProgramSchema>;

export const DEFAULT_REFERRAL_PROGRAM: ReferralProgram = {
  enabled: false,
  whoCanRefer: "anyone",
  codeMode: "shared",
  friendReward: { type: "percentage", value: 1000, minimumOrder: 0, firstOrderOnly: true, expiryDays: 0 },
  advocateReward: { kind: "discount_code", type: "fixed_amount", value: 1000 },
  holdDays: 14,
  fraud: { burstThreshold: 5, burstMinutes: 60, blockExistingCustomers: true, couponSiteThreshold: 50 },
  widget: {
    position: "bottom-right",
    color: "#1f5199",
    textColor: "#ffffff",
    buttonText: "",
    title: "",
    description: "",
    friendTitle: "",
    friendDescription: "",
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === "object" && !Array.isArray(v);

/** The program as stored, completed with defaults; an invalid blob reads as the defaults (switched off). */
export function readReferralProgram(settingsJson: string | null | undefined): ReferralProgram {
  const stored = shopSettingsObject(settingsJson).referrals;
  if (!isObject(stored)) return DEFAULT_REFERRAL_PROGRAM;
  const d = DEFAULT_REFERRAL_PROGRAM;
  const part = <K extends keyof ReferralProgram>(key: K) =>
    isObject(stored[key]) ? { ...(d[key] as object), ...(stored[key] as object) } : d[key];
  const parsed = referralProgramSchema.safeParse({
    ...d,
    ...stored,
    friendReward: part("friendReward"),
    advocateReward: part("advocateReward"),
    fraud: part("fraud"),
    widget: part("widget"),
  });
  return parsed.success ? parsed.data : { ...d, enabled: false };
}
