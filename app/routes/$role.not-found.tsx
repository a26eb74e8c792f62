import { useParams } from "@remix-run/react";
import { NotFoundScreen } from "~/components/StatusScreens";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("any");
export const handle = { i18n: ["Global"] };

export default function NotFound() {
  const { role } = useParams();
  return <NotFoundScreen dashboardUrl={`/${role}/dashboard`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
