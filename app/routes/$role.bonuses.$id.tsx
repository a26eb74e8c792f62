import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("bonuses");
export const handle = { i18n: ["Bonuses"] };
export default placeholderPage("Bonuses", { titleKey: "detailTitle", back: "bonuses" });
export { RouteErrorBoundary as ErrorBoundary };
