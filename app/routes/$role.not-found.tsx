import type { LoaderFunctionArgs } from "@remix-run/node";
import { useParams } from "@remix-run/react";
import { NotFoundScreen } from "~/components/StatusScreens";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "not-found");
export const handle = { i18n: ["Global"] };

export default function NotFound() {
  const { role } = useParams();
  return <NotFoundScreen dashboardUrl={`/${role}/dashboard`} />;
}

export { RouteErrorBoundary as ErrorBoundary };
