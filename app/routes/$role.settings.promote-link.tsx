import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { PromoteLinkSettingsForm } from "~/components/settings/PromoteLinkSettingsForm";
import { merchantRoute } from "~/door/merchant-route.server";
import { promoteLinkSchema } from "~/models/settings/promote-link";
import { getPromoteLink, savePromoteLink } from "~/models/settings/promote-link.server";
import { shopHost } from "~/models/tracking/redirect-url";
import type { RouteHandle } from "~/i18n/route-handle";

// Settings > Promote link: the links affiliates hand out (parameter, landing
// page, link format, UTM parameters).
export const handle: RouteHandle = { i18n: ["Settings", "Global"], title: "Settings:tabs.promoteLink" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db, shop }) => ({
  settings: await getPromoteLink(db),
  host: shopHost(shop),
}));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: promoteLinkSchema },
  async ({ db, body }) => ({ saved: await savePromoteLink(db, body) }),
);

export default function PromoteLinkSettings() {
  const data = useLoaderData<typeof loader>();
  return <PromoteLinkSettingsForm settings={data.settings} host={data.host} />;
}

export { RouteErrorBoundary as ErrorBoundary };
