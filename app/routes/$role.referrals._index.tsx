import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("referrals", "referAFriend");
export const handle = { i18n: ["Referrals"] };
export default placeholderPage("Referrals", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
