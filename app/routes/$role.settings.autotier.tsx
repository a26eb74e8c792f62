import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { AutotierSettings } from "~/components/tiers/AutotierSettings";
import { merchantRoute } from "~/door/merchant-route.server";
import { requirePlanFeature } from "~/door/plan-check.server";
import type { RouteHandle } from "~/i18n/route-handle";
import {
  applyAutotierNow,
  autotierActionSchema,
  loadAutotier,
  saveAutotier,
  undoAutotierRun,
} from "~/models/tiers/autotier-settings.server";
import { useShell } from "./$role";

// Settings › Autotier: the ladder of campaigns affiliates move along, its
// switches and the latest moves. A plan feature.
export const handle: RouteHandle = { i18n: ["Settings", "Global"], title: "Settings:tabs.autotier" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db, shop, role }) => {
  requirePlanFeature(shop.pricingPlan, role, "autoTier");
  return { autotier: await loadAutotier(db) };
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: autotierActionSchema },
  async ({ db, shop, role, user, body }) => {
    requirePlanFeature(shop.pricingPlan, role, "autoTier");
    if (body.intent === "apply_now") return applyAutotierNow(db, body.expected);
    if (body.intent === "undo_run") return undoAutotierRun(db, body.runId, user.id);
    return saveAutotier(db, body);
  },
);

export default function AutotierTab() {
  const { shop } = useShell();
  return <AutotierSettings data={useLoaderData<typeof loader>().autotier} timeZone={shop.timezone} />;
}

export { RouteErrorBoundary as ErrorBoundary };
