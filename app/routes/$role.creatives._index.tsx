import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("creatives");
export const handle = { i18n: ["Creatives"] };
export default placeholderPage("Creatives", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
