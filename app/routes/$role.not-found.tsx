import { useParams } from "@remix-run/react";
import { NotFoundScreen } from "~/components/StatusScreens";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const loader = /* @__PURE__ */ areaPage("any");
export const handle: RouteHandle = { i18n: ["Global"], title: "Global:notFound.title" };

export default function NotFound() {
  const { role } = useParams();
  return <NotFoundScreen dashboardUrl={`/${role}/dashboard`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
