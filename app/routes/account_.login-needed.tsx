import { json } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { PortalMessage } from "~/components/portal/PortalLayout";
import { publicRoute } from "~/door/public-route.server";

// /account/... without a session and without a known portal: the affiliate
// must start from their store's affiliate login page.
export const handle = { i18n: ["Account.Common"], portal: true };

export const loader = /* @__PURE__ */ publicRoute({}, async () => json(null, { status: 401 }));

export default function LoginNeeded() {
  const { t } = useTranslation("Account.Common");
  return <PortalMessage title={t("loginNeeded.title")} text={t("loginNeeded.text")} />;
}
