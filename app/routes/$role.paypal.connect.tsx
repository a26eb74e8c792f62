import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "paypal");
export const handle = { i18n: ["Settings.Payment"] };
export default placeholderPage("Settings.Payment", { titleKey: "paypalConnectTitle", back: "settings/payment" });
export { RouteErrorBoundary as ErrorBoundary };
