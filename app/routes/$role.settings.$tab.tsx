import { redirect } from "@remix-run/node";
import { useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralSettingsForm } from "~/components/GeneralSettingsForm";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { NotBuiltYet } from "~/components/StatusScreens";
import { findSettingsTab, SETTINGS_NAMESPACES } from "~/lib/settings-tabs";
import { merchantRoute } from "~/door/merchant-route.server";

export const handle = { i18n: SETTINGS_NAMESPACES };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ role, params }) => {
  const tab = findSettingsTab(params.tab);
  if (!tab) throw redirect(`/${role}/not-found`);
  return { tab };
});

export default function SettingsTab() {
  const { tab } = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { t } = useTranslation(SETTINGS_NAMESPACES);
  if (tab.tab === "general") return <GeneralSettingsForm />;
  return <NotBuiltYet title={t(`${tab.ns}:${tab.titleKey}`)} backUrl={`/${role}/settings`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
