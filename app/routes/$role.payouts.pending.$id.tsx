import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";
import { findAffiliate } from "~/models/shop/tenant-lookups.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "payouts", findAffiliate);
export const handle = { i18n: ["Payouts"] };
export default placeholderPage("Payouts", { titleKey: "pendingTitle", back: "payouts" });
export { RouteErrorBoundary as ErrorBoundary };
