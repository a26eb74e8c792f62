import { json } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { PortalMessage } from "~/components/portal/PortalLayout";
import { publicRoute } from "~/door/public-route.server";
import type { RouteHandle } from "~/i18n/route-handle";

// /account/... without a session and without a known portal: the affiliate
// must start from their store's affiliate login page.
export const handle: RouteHandle = {
  i18n: ["Account.Common"],
  portal: true,
  title: "Account.Common:loginNeeded.title",
};

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async () => json(null, { status: 401 }));

export default function LoginNeeded() {
  const { t } = useTranslation("Account.Common");
  return <PortalMessage title={t("loginNeeded.title")} text={t("loginNeeded.text")} />;
}
