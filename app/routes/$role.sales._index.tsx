import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = areaLoader("sales");
export const handle = { i18n: ["Sales"] };
export default placeholderPage("Sales", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
