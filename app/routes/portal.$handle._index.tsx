import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PortalLandingView, PortalLayout } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { publicRoute } from "~/door/public-route.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { portalShopTitle } from "~/i18n/page-title";

// The affiliate landing page of a shop: /portal/{handle}/, the custom
// domain's root, or /apps/affiliate on the shop's domain.
export const handle: RouteHandle = {
  i18n: ["Account.Common"],
  portal: true,
  title: portalShopTitle("Account.Common:portal.programName"),
};

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async ({ request, params }) => {
  const { ctx, page, chrome } = await loadPortalPage(request, params.handle, "landing");
  return json({ page, chrome }, { headers: await portalHeaders(ctx) });
});

export default function Landing() {
  const { page, chrome } = useLoaderData<typeof loader>();
  return (
    <PortalLayout chrome={chrome} page={page}>
      <PortalLandingView page={page} chrome={chrome} />
    </PortalLayout>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
