import { isRouteErrorResponse, useLocation, useParams, useRouteError } from "@remix-run/react";
import { keptParams } from "../lib/embedded-params";
import type { ErrorBody } from "../lib/errors";
import { RenderErrorFallback } from "./RenderErrorFallback";
import { UpgradeScreen, upgradeOf } from "./UpgradeScreen";
import { BadRequestScreen, ForbiddenScreen, NotFoundScreen } from "./StatusScreens";

// Error boundary of every page inside the admin shell: 403, 404 and bad
// query values (400/422) get their own screens (with no data of the page),
// anything else the render-error fallback with a reset.
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { role } = useParams();
  const { pathname, search } = useLocation();
  const dashboardUrl = `/${role === "staff" ? "staff" : "admin"}/dashboard`;
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      const home = (error.data as { home?: string | null } | null)?.home;
      const upgrade = upgradeOf(error);
      if (upgrade) return <UpgradeScreen upgrade={upgrade} dashboardUrl={home ?? dashboardUrl} />;
      return <ForbiddenScreen dashboardUrl={home ?? dashboardUrl} />;
    }
    if (error.status === 404) return <NotFoundScreen dashboardUrl={dashboardUrl} />;
    if (error.status === 400 || error.status === 422) {
      const body = (error.data as Partial<ErrorBody> | null)?.error;
      return (
        <BadRequestScreen message={body?.message} fields={body?.fields} startOverUrl={startOver(pathname, search)} />
      );
    }
  }
  // A client's mistake (405, 400) is not worth a log line; anything else is.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  return <RenderErrorFallback />;
}

/** The page with its usual settings (inside the Shopify admin, still embedded). */
function startOver(pathname: string, search: string) {
  const kept = keptParams(new URL(`http://x${pathname}${search}`));
  return kept ? `${pathname}?${kept}` : pathname;
}
