import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "portals");
export const handle = { i18n: ["Portals"] };
export default placeholderPage("Portals", { titleKey: "detailTitle", back: "portals" });
export { RouteErrorBoundary as ErrorBoundary };
