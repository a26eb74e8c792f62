import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = areaLoader("affiliates");
export const handle = { i18n: ["Affiliates"] };
export default placeholderPage("Affiliates", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
