import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaAction, areaLoader } from "~/models/auth/area-loader.server";

export const loader = (args: LoaderFunctionArgs) => areaLoader(args, "sales");
export const action = (args: ActionFunctionArgs) => areaAction(args, "sales");
export const handle = { i18n: ["Sales"] };
export default placeholderPage("Sales", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
