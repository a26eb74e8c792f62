import { redirect, type HeadersFunction } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { LoginScreen } from "~/components/LoginScreen";
import { publicRoute } from "~/door/public-route.server";
import { logInMerchant } from "~/models/auth/login-action.server";
import { loginSchema } from "~/models/auth/login.server";
import { loggedInHome } from "~/models/auth/require-merchant.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Global"], title: "Global:login.adminTitle" };

// Pass the action's headers (Retry-After when rate-limited) to the document.
export const headers: HeadersFunction = ({ actionHeaders }) => actionHeaders;

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async ({ request }) => {
  // Already logged in: straight to that user's dashboard.
  const home = await loggedInHome(request);
  if (home) throw redirect(home);
  return null;
});

export const action = /* @__PURE__ */ publicRoute({ scheme: "page", body: loginSchema }, ({ request, body }) =>
  logInMerchant("admin", body, request),
);

export default function AdminLogin() {
  const { t } = useTranslation("Global");
  return <LoginScreen title={t("login.adminTitle")} />;
}
