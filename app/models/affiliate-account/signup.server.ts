import type { ShopDb } from "../../db/shop-db.server";
import { emitEvent } from "../events/emit-event.server";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { z } from "zod";
import { portalLanguageParam } from "../../i18n/language-table";
import { msg } from "../../i18n/messages";
import { firstNameField, lastNameField } from "./name-fields";
import { AppError } from "../../lib/errors";
import { isAssetUrlShape, type FieldMode, type SignupFormConfig } from "../../lib/portal-content";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth/password.server";
import { consumeSignup } from "../auth/rate-limit.server";
import { generateReferralCode } from "../affiliates/affiliate-writes.server";
import { parseReferralCode } from "../tracking/referral-code";
import { customFieldAnswers, customFieldsShape } from "../../lib/signup-fields";

// Affiliate sign-up through a shop's portal. The merchant chooses which
// optional fields the form asks (lib/portal-content.ts); e-mail is unique per
// shop; a recruit link (?ref=CODE of an approved affiliate) makes that
// affiliate the upline (MLM); the campaign's auto-approval decides between
// approved and pending. Messages are translation keys (app/i18n/messages.ts):
// the page shows them in the affiliate's language.

const optionalUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === "" || (/^https?:\/\//i.test(v) && isAssetUrlShape(v)), msg("Account.Common:validation.website"));

function byMode(mode: FieldMode, schema: z.ZodType<string, z.ZodTypeDef, string>, requiredMessage: string) {
  if (mode === "required")
    return z.string({ required_error: requiredMessage }).trim().min(1, requiredMessage).pipe(schema);
  return z.string().optional().default("").pipe(schema);
}

/** The sign-up form's schema for this shop's form settings. */
export function signupSchema(form: SignupFormConfig) {
  return z
    .object({
      firstName: firstNameField,
      lastName: lastNameField,
      email: z
        .string({ required_error: msg("Global:validation.email") })
        .trim()
        .toLowerCase()
        .email(msg("Global:validation.email"))
        .max(254),
      password: z
        .string({ required_error: msg("Global:validation.textMin", { min: PASSWORD_MIN_LENGTH }) })
        .min(PASSWORD_MIN_LENGTH, msg("Global:validation.textMin", { min: PASSWORD_MIN_LENGTH }))
        .max(PASSWORD_MAX_LENGTH, msg("Global:validation.textMax", { max: PASSWORD_MAX_LENGTH })),
      paypalEmail:
        form.paypalEmail === "off"
          ? z.any().transform(() => "")
          : byMode(
              form.paypalEmail,
              z
                .string()
                .trim()
                .toLowerCase()
                .max(254)
                .refine(
                  (v) => v === "" || z.string().email().safeParse(v).success,
                  msg("Account.Common:validation.paypalEmail"),
                ),
              msg("Account.Common:validation.paypalEmailRequired"),
            ),
      website:
        form.website === "off"
          ? z.any().transform(() => "")
          : byMode(form.website, optionalUrl, msg("Account.Common:validation.websiteRequired")),
      social:
        form.social === "off"
          ? z.any().transform(() => "")
          : byMode(
              form.social,
              z
                .string()
                .max(2000)
                .refine(
                  (v) =>
                    v
                      .split(/\s+/)
                      .filter(Boolean)
                      .every((u) => /^https?:\/\//i.test(u) && isAssetUrlShape(u)),
                  msg("Account.Common:validation.social"),
                ),
              msg("Account.Common:validation.socialRequired"),
            ),
      // With the merchant's terms linked, they must be accepted to sign up.
      terms: form.termsUrl
        ? z.literal("on", { errorMap: () => ({ message: msg("Account.Common:validation.terms") }) })
        : z.unknown().transform(() => undefined),
      ref: z.string().max(64).optional(),
      // A language picked on the portal's pages (?lang=) becomes the
      // affiliate's own; without one they follow the shop's.
      language: z
        .string()
        .optional()
        .transform((v) => portalLanguageParam(v)),
      // Where the applicant came from: "marketplace" (the public listing) or nothing.
      via: z.enum(["marketplace"]).optional().catch(undefined),
      ...customFieldsShape(form.questions),
    })
    .passthrough();
}

export type SignupInput = z.infer<ReturnType<typeof signupSchema>>;

export interface SignupResult {
  affiliateId: string;
  status: "approved" | "pending";
}

export async function signUpAffiliate(
  db: ShopDb,
  form: SignupFormConfig,
  input: SignupInput,
  ip: string,
): Promise<SignupResult> {
  // Before any work: each sign-up costs a password hash.
  await consumeSignup(ip);
  const shopId = db.$shopId;
  const campaign =
    (await db.campaign.findFirst({
      where: { shopId, isDefault: true, status: { not: "draft" } },
      select: { id: true, autoApproveAffiliates: true },
    })) ??
    (await db.campaign.findFirst({
      where: { shopId, status: "active" },
      orderBy: { createdAt: "asc" },
      select: { id: true, autoApproveAffiliates: true },
    }));
  if (!campaign) throw new AppError("conflict", msg("Account.Common:validation.signupClosed"));

  const existing = await db.affiliate.findUnique({
    where: { shopId_email: { shopId, email: input.email } },
    select: { id: true },
  });
  if (existing) throw emailTaken();

  // A recruit link names its upline by code; only an approved affiliate of this shop counts.
  const refCode = parseReferralCode(input.ref ?? "");
  const upline = refCode
    ? await db.affiliate.findFirst({
        where: { shopId, referralCode: refCode, status: "approved" },
        select: { id: true },
      })
    : null;

  const answers = customFieldAnswers(form.questions, input);
  const social = String(input.social ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 10);
  // Applicants from the public marketplace are strangers to the merchant, so
  // they wait for review even when the campaign approves sign-ups by itself.
  const status = campaign.autoApproveAffiliates && input.via !== "marketplace" ? "approved" : "pending";
  const passwordHash = await hashPassword(input.password);

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const created = await db.$transaction(async (tx) => {
        const row = await tx.affiliate.create({
          data: {
            shopId,
            campaignId: campaign.id,
            parentId: upline?.id ?? null,
            email: input.email,
            firstName: input.firstName,
            lastName: input.lastName,
            status,
            referralCode: await generateReferralCode(tx, shopId, input.firstName, input.lastName),
            paypalEmail: input.paypalEmail || null,
            website: input.website || null,
            passwordHash,
            signupAnswers: JSON.stringify({ social, answers }),
            termsAcceptedAt: input.terms === "on" ? new Date() : null,
            language: input.language,
          },
          select: { id: true },
        });
        await emitEvent(tx, shopId, "affiliate.created", { affiliateId: row.id, status, source: "signup" });
        return row;
      });
      notifyJobsEnqueued();
      return { affiliateId: created.id, status };
    } catch (error) {
      const target = uniqueTarget(error);
      if (target === null) throw error;
      if (target.includes("email")) throw emailTaken();
      // The code was taken by a concurrent sign-up: pick again.
    }
  }
  throw new AppError("conflict", "Could not pick a referral code. Please try again.");
}

function emailTaken() {
  return new AppError("validation_failed", "Some fields are not valid.", {
    fields: { email: msg("Account.Common:validation.emailTaken") },
  });
}

/** The columns of a unique-constraint violation, or null for any other error. */
function uniqueTarget(error: unknown): string | null {
  if (typeof error !== "object" || error === null || (error as { code?: string }).code !== "P2002") return null;
  const meta = (error as { meta?: { target?: unknown; driverAdapterError?: unknown } }).meta;
  return JSON.stringify(meta ?? {}) + String((error as Error).message ?? "");
}
