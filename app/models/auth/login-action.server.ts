import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { AppError, errorBody } from "../../lib/errors";
import { parseForm } from "../../lib/http.server";
import { safeRedirectPath } from "../../lib/auth-steps";
import type { Role } from "../../lib/areas";
import { loginMerchant, loginSchema } from "./login.server";
import { clientAddress } from "./rate-limit.server";
import { startMerchantSession } from "./user-session.server";

/** The action of /login and /staff/login. */
export async function merchantLoginAction(role: Role, { request }: ActionFunctionArgs) {
  try {
    const input = await parseForm(request, loginSchema);
    const { userId } = await loginMerchant(role, input, clientAddress(request));
    const target = safeRedirectPath(input.redirectTo ?? null);
    const to = target && target.startsWith(`/${role}/`) ? target : `/${role}/dashboard`;
    return redirect(to, { headers: { "Set-Cookie": await startMerchantSession(userId) } });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body, headers } = errorBody(error);
    return json(body, { status, headers });
  }
}
