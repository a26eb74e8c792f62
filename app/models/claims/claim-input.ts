import { z } from "zod";
import { msg } from "../../i18n/messages";
import { parseDecimalInput } from "../../lib/decimal-input";

// What an affiliate types to claim a missing order, and what the merchant
// types to decide a claim. Pure: the form's fields in, a claim's terms out.
// An order is named either by its number and the customer's e-mail, or by
// its date (a day of the shop) and total; a form with neither pair complete
// is refused field by field. Messages are keys in namespaces every account
// language has (Global).

const text = (max: number) => z.string().trim().max(max, msg("Global:validation.textMax", { max }));

export const claimFormSchema = z
  .object({
    orderNumber: text(40).default(""),
    email: text(254).default(""),
    day: text(10).default(""),
    amount: text(20).default(""),
    message: text(500).default(""),
  })
  .superRefine((form, ctx) => {
    const required = (path: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message: msg("Global:validation.required") });
    const byNumber = form.orderNumber !== "" || form.email !== "";
    const byDate = form.day !== "" || form.amount !== "";
    if (!byNumber && !byDate) {
      required("orderNumber");
      required("email");
      return;
    }
    if (byNumber) {
      if (!/^#?[A-Za-z0-9][A-Za-z0-9_-]*$/.test(form.orderNumber)) {
        if (form.orderNumber === "") required("orderNumber");
        else
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: ["orderNumber"],
            message: msg("Global:validation.invalid"),
          });
      }
      if (form.email === "") required("email");
      else if (!z.string().email().safeParse(form.email).success)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["email"], message: msg("Global:validation.email") });
      return;
    }
    if (form.day === "") required("day");
    else if (!isDay(form.day))
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["day"], message: msg("Global:validation.invalid") });
    if (form.amount === "") required("amount");
  });

export type ClaimForm = z.infer<typeof claimFormSchema>;

export type ClaimTerms =
  | { method: "number"; orderNumber: string; email: string; message: string }
  | { method: "date"; day: string; amount: number; message: string };

function isDay(day: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
}

/**
 * The claim's terms from a parsed form: the amount in minor units of the
 * shop's currency (`decimals` digits), or the field message that refuses it.
 */
export function claimTerms(
  form: ClaimForm,
  decimals: number,
): { ok: true; terms: ClaimTerms } | { ok: false; field: string; message: string } {
  if (form.orderNumber !== "" || form.email !== "")
    return {
      ok: true,
      terms: {
        method: "number",
        orderNumber: orderNumberOf(form.orderNumber),
        email: form.email.toLowerCase(),
        message: form.message,
      },
    };
  const amount = parseDecimalInput(form.amount, decimals, 1_000_000_000_000);
  if (!amount.ok || amount.value <= 0)
    return {
      ok: false,
      field: "amount",
      message: amount.ok ? msg("Global:validation.invalid") : msg("Global:validation.number"),
    };
  return { ok: true, terms: { method: "date", day: form.day, amount: amount.value, message: form.message } };
}

/** "1001", "#1001" → "#1001": how Shopify names orders. */
export function orderNumberOf(typed: string): string {
  const bare = typed.trim().replace(/^#+/, "");
  return `#${bare}`;
}

/** The merchant's decision on a claim: approve, or decline with a note the affiliate reads. */
export const claimDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve") }),
  z.object({ intent: z.literal("decline"), note: text(500).default("") }),
]);

export type ClaimDecision = z.infer<typeof claimDecisionSchema>;

export const CLAIM_STATUSES = ["open", "approved", "declined"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** How many claims an affiliate may have open at once, and file in a day. */
export const CLAIM_LIMITS = { open: 10, perDay: 20 } as const;
