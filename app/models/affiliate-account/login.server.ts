import type { ShopDb } from "../../db/shop-db.server";
import { z } from "zod";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { verifyPassword } from "../auth/password.server";
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from "../auth/rate-limit.server";
import { LOGIN_STATUSES } from "./affiliate-session.server";

export const affiliateLoginSchema = z.object({
  email: z.string().trim().toLowerCase().email(msg("Global:validation.email")).max(254),
  password: z
    .string({ required_error: msg("Account.Common:validation.password") })
    .min(1, msg("Account.Common:validation.password"))
    .max(200),
  redirectTo: z.string().max(2048).optional(),
});
export type AffiliateLoginInput = z.infer<typeof affiliateLoginSchema>;

const INVALID = msg("Account.Common:validation.loginInvalid");

/** The login throttle's realm: per shop, apart from the merchants' logins. */
export const affiliateRealm = (shopId: string) => `affiliate:${shopId}`;

/** Checks an affiliate login in one shop; returns the affiliate id or throws AppError. */
export async function loginAffiliate(db: ShopDb, input: AffiliateLoginInput, ip: string): Promise<string> {
  const shopId = db.$shopId;
  const realm = affiliateRealm(shopId);
  await assertLoginAllowed(realm, input.email, ip);
  const affiliate = await db.affiliate.findUnique({
    where: { shopId_email: { shopId, email: input.email } },
    select: { id: true, passwordHash: true, status: true },
  });
  if (await verifyPassword(affiliate?.passwordHash ?? null, input.password)) {
    await recordLoginSuccess(realm, input.email, ip);
    // Only someone who knows the password learns the account's state.
    if (!LOGIN_STATUSES.includes(affiliate!.status)) {
      throw new AppError("forbidden", msg("Account.Common:validation.inactive"));
    }
    return affiliate!.id;
  }
  await recordLoginFailure(realm, input.email, ip);
  throw new AppError("unauthenticated", INVALID);
}
