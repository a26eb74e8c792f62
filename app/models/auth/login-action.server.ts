import { redirect } from "@remix-run/node";
import { safeRedirectPath } from "../../lib/auth-steps";
import type { Role } from "../../lib/areas";
import { loginMerchant, type LoginInput } from "./login.server";
import { clientAddress } from "./rate-limit.server";
import { startMerchantSession } from "./user-session.server";

/**
 * The action of /login and /staff/login: checks the login (throttled), starts
 * the session and goes to the page the user came for, when it is one of
 * this role's pages, else to the dashboard.
 */
export async function logInMerchant(role: Role, input: LoginInput, request: Request): Promise<Response> {
  const { userId } = await loginMerchant(role, input, clientAddress(request));
  const target = safeRedirectPath(input.redirectTo ?? null);
  const to = target && target.startsWith(`/${role}/`) ? target : `/${role}/dashboard`;
  return redirect(to, { headers: { "Set-Cookie": await startMerchantSession(userId) } });
}
