import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "bonuses");
export const handle = { i18n: ["Bonuses"] };
export default placeholderPage("Bonuses", { titleKey: "detailTitle", back: "bonuses" });
export { RouteErrorBoundary as ErrorBoundary };
