import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "creatives");
export const handle = { i18n: ["Creatives"] };
export default placeholderPage("Creatives", { titleKey: "detailTitle", back: "creatives" });
export { RouteErrorBoundary as ErrorBoundary };
