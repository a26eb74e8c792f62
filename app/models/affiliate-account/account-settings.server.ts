import { z } from "zod";
import type { ShopDb } from "../../db/shop-db.server";
import { PORTAL_LANGUAGE_CODES } from "../../i18n/languages";
import { msg } from "../../i18n/messages";
import { firstNameField, lastNameField } from "./name-fields";
import { AppError, fieldErrorsFromZod } from "../../lib/errors";
import { loadAffiliatePayoutChoice, saveAffiliatePayoutChoice } from "../payouts/affiliate-payout-choice.server";
import { payoutChoiceSchema, type PayoutChoiceForm } from "../payouts/payout-choice";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "../auth/password.server";
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from "../auth/rate-limit.server";
import { affiliateRealm } from "./login.server";

// What an affiliate changes on their own account pages (plain HTML forms,
// checked on the server): profile, password, and how payouts are paid. A change
// that could move money or take over the account asks for the current
// password, so a session left open (or a forged request that got past the
// origin check) is not enough. Messages are translation keys
// (app/i18n/messages.ts): the pages show them in the affiliate's language.

const currentPassword = z
  .string({ required_error: msg("Account.Common:validation.currentPassword") })
  .min(1, msg("Account.Common:validation.currentPassword"))
  .max(200);

const profileForm = z.object({
  intent: z.literal("profile"),
  firstName: firstNameField,
  lastName: lastNameField,
  website: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), msg("Account.Common:validation.website")),
  language: z.enum(["", ...PORTAL_LANGUAGE_CODES]),
});

const passwordForm = z.object({
  intent: z.literal("password"),
  current: currentPassword,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, msg("Global:validation.textMin", { min: PASSWORD_MIN_LENGTH }))
    .max(PASSWORD_MAX_LENGTH),
  confirm: z.string(),
});

/** /account/settings: its two forms, told apart by `intent`. */
export const accountSettingsSchema = z
  .discriminatedUnion("intent", [profileForm, passwordForm], {
    errorMap: (issue, ctx) =>
      issue.code === z.ZodIssueCode.invalid_union_discriminator
        ? { message: "Unknown form." }
        : { message: ctx.defaultError },
  })
  .superRefine((v, ctx) => {
    if (v.intent === "password" && v.password !== v.confirm) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["confirm"],
        message: msg("Account.Common:validation.passwordsDiffer"),
      });
    }
  });
export type ProfileForm = z.infer<typeof profileForm>;
export type PasswordForm = z.infer<typeof passwordForm>;

/**
 * Checks the affiliate's current password. Wrong guesses count against the
 * same throttle as the portal's login, so the form cannot be used to guess.
 */
async function checkCurrentPassword(db: ShopDb, affiliateId: string, password: string, ip: string) {
  const row = await db.affiliate.findFirst({ where: { id: affiliateId }, select: { email: true, passwordHash: true } });
  if (!row) throw new AppError("not_found", "Your account was not found.");
  const realm = affiliateRealm(db.$shopId);
  await assertLoginAllowed(realm, row.email, ip);
  if (!(await verifyPassword(row.passwordHash, password))) {
    await recordLoginFailure(realm, row.email, ip);
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: { current: msg("Account.Common:validation.currentPasswordWrong") },
    });
  }
  await recordLoginSuccess(realm, row.email, ip);
}

/**
 * /account/payouts: how the affiliate is paid. Parsed again against the
 * shop's offer of the moment (payout-choice.ts), after the password.
 */
export async function savePayoutMethod(db: ShopDb, affiliateId: string, form: PayoutChoiceForm, ip: string) {
  await checkCurrentPassword(db, affiliateId, form.current, ip);
  const saved = await loadAffiliatePayoutChoice(db, db.$shopId, affiliateId);
  const parsed = payoutChoiceSchema(saved.settings, { bankComplete: saved.bankComplete }).safeParse(form);
  if (!parsed.success) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  await saveAffiliatePayoutChoice(db, db.$shopId, affiliateId, parsed.data);
}

export async function saveProfile(db: ShopDb, affiliateId: string, form: ProfileForm) {
  await db.affiliate.update({
    where: { id: affiliateId },
    data: {
      firstName: form.firstName,
      lastName: form.lastName,
      website: form.website || null,
      language: form.language || null,
    },
  });
}

/** Sets a new password; every session of the affiliate ends (the caller starts a fresh one). */
export async function changePassword(db: ShopDb, affiliateId: string, form: PasswordForm, ip: string) {
  await checkCurrentPassword(db, affiliateId, form.current, ip);
  const passwordHash = await hashPassword(form.password);
  await db.$transaction(async (tx) => {
    await tx.affiliate.update({ where: { id: affiliateId }, data: { passwordHash } });
    await tx.affiliateSession.deleteMany({ where: { affiliateId } });
  });
}
