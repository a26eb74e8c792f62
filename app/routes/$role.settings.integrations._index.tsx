import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { IntegrationsView } from "~/components/settings/IntegrationsView";
import { merchantRoute } from "~/door/merchant-route.server";
import { integrationsOverview, runIntegrationsAction } from "~/models/webhooks-out/integrations-screen.server";
import { integrationsActionSchema } from "~/models/webhooks-out/webhook-endpoint-form";
import type { RouteHandle } from "~/i18n/route-handle";

// Settings > Integrations: the shop's outgoing webhook endpoints; a new
// endpoint's secret is shown once, in the action's answer.
export const handle: RouteHandle = {
  i18n: ["Settings.Integrations", "Settings", "Global"],
  title: "Settings.Integrations:title",
};

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "settings", feature: "integrations" },
  async ({ db, shop }) => integrationsOverview(db, shop.timezone),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", feature: "integrations", body: integrationsActionSchema },
  async ({ db, shop, body }) => runIntegrationsAction(db, shop.id, body),
);

export default function Integrations() {
  return <IntegrationsView data={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary };
