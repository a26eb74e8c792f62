import { z } from "zod";
import { getDb } from "../../db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password.server";
import { isTokenUsable, newToken, tokenDigest as digest } from "./single-use-token";

// Single-use, expiring links for setting a password (staff invites, resets).
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export async function issuePasswordToken(userId: string, purpose: "invite" | "reset", ttlMs = INVITE_TTL_MS) {
  const { token, tokenHash, expiresAt } = newToken(ttlMs);
  await getDb().passwordToken.create({ data: { userId, purpose, tokenHash, expiresAt } });
  return token;
}

// Also the affiliates' reset form: its messages are translation keys
// (app/i18n/messages.ts), shown in English on the staff's page.
const linkInvalid = msg("Account.Common:validation.linkInvalid");
export const setPasswordSchema = z
  .object({
    token: z.string({ required_error: linkInvalid }).min(20, linkInvalid).max(200, linkInvalid),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, msg("Global:validation.textMin", { min: PASSWORD_MIN_LENGTH }))
      .max(PASSWORD_MAX_LENGTH, msg("Global:validation.textMax", { max: PASSWORD_MAX_LENGTH })),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, {
    path: ["confirm"],
    message: msg("Account.Common:validation.passwordsDiffer"),
  });

/** The user a still-valid token belongs to, or null. */
export async function findUserForToken(token: string) {
  const row = await getDb().passwordToken.findUnique({
    where: { tokenHash: digest(token) },
    include: { user: { select: { id: true, email: true, name: true, role: true, status: true } } },
  });
  if (!row || !isTokenUsable(row) || row.user.status === "disabled") return null;
  return row.user;
}

/** Sets the password and spends the token in one transaction; returns the user and their role. */
export async function setPasswordWithToken(
  token: string,
  password: string,
): Promise<{ userId: string; role: "admin" | "staff" }> {
  const passwordHash = await hashPassword(password);
  return getDb().$transaction(async (tx) => {
    const row = await tx.passwordToken.findUnique({ where: { tokenHash: digest(token) }, include: { user: true } });
    if (!row || !isTokenUsable(row) || row.user.status === "disabled") {
      throw new AppError("bad_request", "This link is invalid or has expired. Ask the store admin for a new invite.");
    }
    // updateMany with usedAt: null makes a second, concurrent use find nothing.
    const spent = await tx.passwordToken.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (spent.count !== 1) throw new AppError("bad_request", "This link has already been used.");
    await tx.user.update({ where: { id: row.userId }, data: { passwordHash, status: "active" } });
    // A new password ends every existing session of that person.
    await tx.userSession.deleteMany({ where: { userId: row.userId } });
    return { userId: row.userId, role: row.user.role === "admin" ? "admin" : "staff" };
  });
}
