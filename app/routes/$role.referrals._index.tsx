import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "referrals");
export const handle = { i18n: ["Referrals"] };
export default placeholderPage("Referrals", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
