import { redirect } from "@remix-run/node";
import { useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralSettingsForm } from "~/components/GeneralSettingsForm";
import { AutotierSettings } from "~/components/tiers/AutotierSettings";
import { NetworkSettings } from "~/components/networks/NetworkSettings";
import { z } from "zod";
import { campaignLevels, networkLevel, searchNetwork } from "~/models/networks/network.server";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { NotBuiltYet } from "~/components/StatusScreens";
import { findSettingsTab, SETTINGS_NAMESPACES } from "~/lib/settings-tabs";
import { merchantRoute } from "~/door/merchant-route.server";
import { requirePlanFeature } from "~/door/plan-check.server";
import { AppError } from "~/lib/errors";
import {
  applyAutotierNow,
  autotierActionSchema,
  loadAutotier,
  saveAutotier,
  undoAutotierRun,
} from "~/models/tiers/autotier-settings.server";
import { useShell } from "./$role";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: SETTINGS_NAMESPACES,
  title: ({ params }) => {
    const tab = findSettingsTab(params.tab);
    return tab ? `${tab.ns}:${tab.titleKey}` : null;
  },
};

// Networks: ?parent= loads one level of the tree (lazily, from the browser),
// ?after= the next page of a level, ?q= searches members.
const query = z.object({
  parent: z.string().max(200).optional(),
  after: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
});

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "settings", query },
  async ({ db, shop, role, params, query }) => {
    const tab = findSettingsTab(params.tab);
    if (!tab) throw redirect(`/${role}/not-found`);
    if (tab.tab === "autotier") requirePlanFeature(shop.pricingPlan, role, "autoTier");
    const network =
      tab.tab === "networks"
        ? {
            level: await networkLevel(db, query.parent ?? null, query.after ?? null),
            q: query.q ?? "",
            results: query.q?.trim() ? await searchNetwork(db, query.q) : null,
            campaigns: query.parent || query.after ? [] : await campaignLevels(db),
          }
        : null;
    return { tab, autotier: tab.tab === "autotier" ? await loadAutotier(db) : null, network };
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: autotierActionSchema },
  async ({ db, shop, role, user, params, body }) => {
    if (params.tab !== "autotier") throw new AppError("not_found", "This settings tab saves nothing here.");
    requirePlanFeature(shop.pricingPlan, role, "autoTier");
    if (body.intent === "apply_now") return applyAutotierNow(db, body.expected);
    if (body.intent === "undo_run") return undoAutotierRun(db, body.runId, user.id);
    return saveAutotier(db, body);
  },
);

export default function SettingsTab() {
  const { tab, autotier, network } = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { shop } = useShell();
  const { t } = useTranslation(SETTINGS_NAMESPACES);
  if (tab.tab === "general") return <GeneralSettingsForm />;
  if (tab.tab === "networks" && network) return <NetworkSettings data={network} />;
  if (tab.tab === "autotier" && autotier) return <AutotierSettings data={autotier} timeZone={shop.timezone} />;
  return <NotBuiltYet title={t(`${tab.ns}:${tab.titleKey}`)} backUrl={`/${role}/settings`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
