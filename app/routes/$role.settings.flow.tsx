import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { FlowView } from "~/components/settings/FlowView";
import { merchantRoute } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { flowOverview } from "~/models/flow/flow-overview.server";

// Settings › Shopify Flow: the triggers and actions the app offers Flow, and
// whether Flow reaches this shop. It only reads: Flow's workflows are made in Flow.
export const handle: RouteHandle = {
  i18n: ["Settings.Integrations", "Settings", "Global"],
  title: "Settings.Integrations:flow.title",
};

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ shop }) => flowOverview(shop.id));

export default function FlowSettings() {
  return <FlowView data={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary };
