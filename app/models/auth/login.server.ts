import { z } from "zod";
import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import type { Role } from "../../lib/areas";
import { verifyPassword } from "./password.server";
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from "./rate-limit.server";

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address").max(254),
  password: z.string().min(1, "Enter your password").max(200, "Password is too long"),
  redirectTo: z.string().optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

const INVALID = "Incorrect e-mail or password.";

/** Checks a merchant login; returns the user id or throws AppError. */
export async function loginMerchant(role: Role, input: LoginInput, ip: string): Promise<{ userId: string }> {
  await assertLoginAllowed(role, input.email, ip);
  const candidates = await getDb().user.findMany({
    where: { email: input.email, role, status: "active" },
    orderBy: { createdAt: "asc" },
    select: { id: true, passwordHash: true },
  });
  for (const user of candidates) {
    if (await verifyPassword(user.passwordHash, input.password)) {
      await recordLoginSuccess(role, input.email, ip);
      await getDb().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
      return { userId: user.id };
    }
  }
  if (candidates.length === 0) await verifyPassword(null, input.password);
  await recordLoginFailure(role, input.email, ip);
  throw new AppError("unauthenticated", INVALID);
}
