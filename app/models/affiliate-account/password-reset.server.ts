import { z } from "zod";
import { getDb } from "../../db.server";
import { shopDb, type ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { hashPassword } from "../auth/password.server";
import { assertLoginAllowed, recordLoginFailure } from "../auth/rate-limit.server";
import { isTokenShaped, isTokenUsable, newToken, tokenDigest } from "../auth/single-use-token";
import { notifyJobsEnqueued } from "../../db/job-queue.server";
import { queueEmail } from "../mail/outbox.server";
import { prepareNotification, shippedT } from "../notifications/compose-notification.server";
import {
  affiliateValues,
  languageOf,
  notificationAffiliateSelect,
  notificationShopSelect,
} from "../notifications/notification-values.server";
import { portalPagesUrl, type PortalContext } from "../portal/portal-context.server";
import { LOGIN_STATUSES } from "./affiliate-session.server";

// Affiliate password resets by e-mail link, and the app proxy's one-time
// hand-over to the account area. Tokens are single use and expire (shared
// rules in auth/single-use-token.ts); only their SHA-256 is stored.
export const RESET_TTL_MS = 60 * 60 * 1000;
export const HANDOVER_TTL_MS = 2 * 60 * 1000;

export const forgotSchema = z.object({
  email: z.string().trim().toLowerCase().email(msg("Global:validation.email")).max(254),
});

// The same form as a staff member's "set your password" page.
export { setPasswordSchema as resetSchema } from "../auth/password-token.server";

/**
 * Sends a reset link when the e-mail belongs to an affiliate of this shop who
 * may log in. The answer is the same either way, so nobody learns who has an
 * account; the number of requests per address is limited like logins. The
 * link opens where a session can be kept (the app's URL, or the shop's
 * verified custom domain): never a host the request named (portalPagesUrl).
 */
export async function requestPasswordReset(
  portal: Pick<PortalContext, "shop" | "way" | "handle">,
  email: string,
  ip: string,
  ttlMs = RESET_TTL_MS,
) {
  const { shop } = portal;
  const resetUrl = (token: string) => `${portalPagesUrl(portal)}/reset?token=${token}`;
  const realm = `affiliate-reset:${shop.id}`;
  await assertLoginAllowed(realm, email, ip);
  await recordLoginFailure(realm, email, ip);
  const affiliate = await getDb().affiliate.findUnique({
    where: { shopId_email: { shopId: shop.id, email } },
    select: notificationAffiliateSelect,
  });
  if (!affiliate || !LOGIN_STATUSES.includes(affiliate.status)) return;
  const { token, tokenHash, expiresAt } = newToken(ttlMs);
  // A catalogue notification (transactional: always sent, no unsubscribe),
  // in the affiliate's language, with the merchant's edited text if any.
  // Rendered before the write: SQLite's write lock is not held while a
  // template renders.
  const shopRow = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id }, select: notificationShopSelect });
  const language = languageOf(affiliate, shopRow);
  const minutes = Math.round(ttlMs / 60000);
  const mail = await prepareNotification(getDb(), {
    shop: shopRow,
    key: "affiliate.reset",
    to: email,
    language,
    values: {
      ...affiliateValues(shopRow, affiliate),
      reset_url: resetUrl(token),
      link_expires: shippedT(language, "Account.Common")("Account.Common:email.minutes", { count: minutes }),
    },
    dedupeBy: null,
  });
  await getDb().$transaction(async (tx) => {
    await tx.affiliateToken.create({ data: { affiliateId: affiliate.id, purpose: "reset", tokenHash, expiresAt } });
    if (mail) await queueEmail(tx, mail);
  });
  notifyJobsEnqueued();
}

/** Finds a usable token of a shop's affiliate, or null. */
async function usableToken(db: ShopDb, token: string, purpose: "reset" | "login") {
  const shopId = db.$shopId;
  if (!isTokenShaped(token)) return null;
  const row = await db.affiliateToken.findUnique({
    where: { tokenHash: tokenDigest(token) },
    include: { affiliate: { select: { id: true, shopId: true, status: true } } },
  });
  if (!row || row.purpose !== purpose || !isTokenUsable(row) || !LOGIN_STATUSES.includes(row.affiliate.status))
    return null;
  if (row.affiliate.shopId !== shopId) return null;
  return row;
}

export async function isResetTokenValid(db: ShopDb, token: string): Promise<boolean> {
  return !!(await usableToken(db, token, "reset"));
}

/** Spends a token (once, even under concurrent use); returns the affiliate id. */
async function spendToken(
  db: ShopDb,
  token: string,
  purpose: "reset" | "login",
  then?: (affiliateId: string, tx: Parameters<Parameters<ShopDb["$transaction"]>[0]>[0]) => Promise<void>,
) {
  const row = await usableToken(db, token, purpose);
  if (!row) throw new AppError("bad_request", msg("Account.Common:validation.linkInvalid"));
  return db.$transaction(async (tx) => {
    const spent = await tx.affiliateToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    });
    if (spent.count !== 1) throw new AppError("bad_request", msg("Account.Common:validation.linkUsed"));
    await then?.(row.affiliateId, tx);
    return row.affiliateId;
  });
}

/** Sets a new password from a reset link; every session of the affiliate ends. */
export async function resetAffiliatePassword(db: ShopDb, token: string, password: string): Promise<string> {
  const passwordHash = await hashPassword(password);
  return spendToken(db, token, "reset", async (affiliateId, tx) => {
    await tx.affiliate.update({ where: { id: affiliateId }, data: { passwordHash } });
    await tx.affiliateSession.deleteMany({ where: { affiliateId } });
    // Other reset links sent before this one are void now.
    await tx.affiliateToken.updateMany({
      where: { affiliateId, purpose: "reset", usedAt: null },
      data: { usedAt: new Date() },
    });
  });
}

/** A one-time link into the account area (login through the app proxy, where cookies do not pass). */
export async function issueHandoverToken(affiliateId: string): Promise<string> {
  const { token, tokenHash, expiresAt } = newToken(HANDOVER_TTL_MS);
  await getDb().affiliateToken.create({ data: { affiliateId, purpose: "login", tokenHash, expiresAt } });
  return token;
}

export async function spendHandoverToken(token: string): Promise<{ affiliateId: string; shopId: string } | null> {
  if (!isTokenShaped(token)) return null;
  const row = await getDb().affiliateToken.findUnique({
    where: { tokenHash: tokenDigest(token) },
    select: { affiliate: { select: { shopId: true } } },
  });
  if (!row) return null;
  try {
    const affiliateId = await spendToken(shopDb(getDb(), row.affiliate.shopId), token, "login");
    return { affiliateId, shopId: row.affiliate.shopId };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
