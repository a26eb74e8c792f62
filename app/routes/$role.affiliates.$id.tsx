import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";
import { findAffiliate } from "~/models/shop/tenant-lookups.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "affiliates", findAffiliate);
export const handle = { i18n: ["Affiliates"] };
export default placeholderPage("Affiliates", { titleKey: "detailTitle", back: "affiliates" });
export { RouteErrorBoundary as ErrorBoundary };
