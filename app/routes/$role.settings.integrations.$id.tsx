import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { WebhookEndpointView } from "~/components/settings/WebhookEndpointView";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { endpointDetail, runIntegrationsAction } from "~/models/webhooks-out/integrations-screen.server";
import { integrationsActionSchema } from "~/models/webhooks-out/webhook-endpoint-form";
import type { RouteHandle } from "~/i18n/route-handle";

// One webhook endpoint: its settings, secret rotation, test event and the
// delivery log with manual redelivery.
export const handle: RouteHandle = {
  i18n: ["Settings.Integrations", "Settings", "Global"],
  title: "Settings.Integrations:detail.title",
};

const params = idParams("webhook endpoint");
const query = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1) });

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "settings", feature: "integrations", params, query },
  async ({ db, shop, params, query }) => endpointDetail(db, params.id, query.page, shop.timezone),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", feature: "integrations", params, body: integrationsActionSchema },
  async ({ db, shop, role, body }) => {
    const result = await runIntegrationsAction(db, shop.id, body);
    // The endpoint is gone: back to the list.
    if (result.intent === "delete") throw redirect(`/${role}/settings/integrations`);
    return result;
  },
);

export default function WebhookEndpoint() {
  return <WebhookEndpointView data={useLoaderData<typeof loader>()} />;
}

export { RouteErrorBoundary as ErrorBoundary };
