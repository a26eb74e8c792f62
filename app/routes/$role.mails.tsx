import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";

export const loader = /* @__PURE__ */ areaPage("mails");
export const handle = { i18n: ["Mails"] };
export default placeholderPage("Mails", { titleKey: "title" });
export { RouteErrorBoundary as ErrorBoundary };
