import { z } from "zod";
import { getDb } from "../../db.server";
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

export const setPasswordSchema = z
  .object({
    token: z.string().min(20, "This link is not valid").max(200, "This link is not valid"),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
      .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters`),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The passwords do not match" });

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
