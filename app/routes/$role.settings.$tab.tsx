import { redirect } from "@remix-run/node";
import { useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralSettingsForm } from "~/components/GeneralSettingsForm";
import { AutotierSettings } from "~/components/tiers/AutotierSettings";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { NotBuiltYet } from "~/components/StatusScreens";
import { findSettingsTab, SETTINGS_NAMESPACES } from "~/lib/settings-tabs";
import { merchantRoute } from "~/door/merchant-route.server";
import { AppError } from "~/lib/errors";
import { autotierSaveSchema, loadAutotier, saveAutotier } from "~/models/tiers/autotier-settings.server";
import { useShell } from "./$role";

export const handle = { i18n: SETTINGS_NAMESPACES };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db, role, params }) => {
  const tab = findSettingsTab(params.tab);
  if (!tab) throw redirect(`/${role}/not-found`);
  return { tab, autotier: tab.tab === "autotier" ? await loadAutotier(db) : null };
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: autotierSaveSchema },
  async ({ db, params, body }) => {
    if (params.tab !== "autotier") throw new AppError("not_found", "This settings tab saves nothing here.");
    return saveAutotier(db, body);
  },
);

export default function SettingsTab() {
  const { tab, autotier } = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { shop } = useShell();
  const { t } = useTranslation(SETTINGS_NAMESPACES);
  if (tab.tab === "general") return <GeneralSettingsForm />;
  if (tab.tab === "autotier" && autotier) return <AutotierSettings data={autotier} timeZone={shop.timezone} />;
  return <NotBuiltYet title={t(`${tab.ns}:${tab.titleKey}`)} backUrl={`/${role}/settings`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
