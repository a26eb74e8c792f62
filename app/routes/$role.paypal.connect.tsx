import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("paypal", "paypalPayouts");
export const handle = { i18n: ["Settings.Payment"] };
export default placeholderPage("Settings.Payment", { titleKey: "paypalConnectTitle", back: "settings/payment" });
export { RouteErrorBoundary as ErrorBoundary };
