import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";
import { findCampaign } from "~/models/shop/tenant-lookups.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "campaigns", findCampaign);
export const handle = { i18n: ["Campaigns"] };
export default placeholderPage("Campaigns", { titleKey: "detailTitle", back: "campaigns" });
export { RouteErrorBoundary as ErrorBoundary };
