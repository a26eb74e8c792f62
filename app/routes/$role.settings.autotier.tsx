import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { AutotierSettings } from "~/components/tiers/AutotierSettings";
import { merchantRoute } from "~/door/merchant-route.server";
import { requirePlanFeature } from "~/door/plan-check.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { autotierSaveSchema, loadAutotier, saveAutotier } from "~/models/tiers/autotier-settings.server";
import { useShell } from "./$role";

// Settings › Autotier: the ladder of campaigns affiliates move along, its
// switches and the latest moves. A plan feature.
export const handle: RouteHandle = { i18n: ["Settings", "Global"], title: "Settings:tabs.autotier" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db, shop, role }) => {
  requirePlanFeature(shop.pricingPlan, role, "autoTier");
  return { autotier: await loadAutotier(db) };
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: autotierSaveSchema },
  async ({ db, shop, role, body }) => {
    requirePlanFeature(shop.pricingPlan, role, "autoTier");
    return saveAutotier(db, body);
  },
);

export default function AutotierTab() {
  const { shop } = useShell();
  return <AutotierSettings data={useLoaderData<typeof loader>().autotier} timeZone={shop.timezone} />;
}

export { RouteErrorBoundary as ErrorBoundary };
