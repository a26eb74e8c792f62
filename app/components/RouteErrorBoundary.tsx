import { isRouteErrorResponse, useParams, useRouteError } from "@remix-run/react";
import { RenderErrorFallback } from "./RenderErrorFallback";
import { ForbiddenScreen, NotFoundScreen } from "./StatusScreens";

// Error boundary of every page inside the admin shell: 403 and 404 get their
// own screens (with no data of the page), anything else the render-error
// fallback with a reset.
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { role } = useParams();
  const dashboardUrl = `/${role === "staff" ? "staff" : "admin"}/dashboard`;
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      const home = (error.data as { home?: string | null } | null)?.home;
      return <ForbiddenScreen dashboardUrl={home ?? dashboardUrl} />;
    }
    if (error.status === 404) return <NotFoundScreen dashboardUrl={dashboardUrl} />;
  }
  // A client's mistake (405, 400) is not worth a log line; anything else is.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  return <RenderErrorFallback />;
}
