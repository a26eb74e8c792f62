import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("payouts");
export const handle = { i18n: ["Payouts"] };
export default placeholderPage("Payouts", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
