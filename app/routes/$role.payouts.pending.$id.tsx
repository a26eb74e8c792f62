import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { recordPage } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { requireAffiliate } from "~/models/shop/tenant-lookups.server";

const params = idParams("affiliate");
export const loader = /* @__PURE__ */ recordPage("payouts", params, requireAffiliate);
export const handle = { i18n: ["Payouts"] };
export default placeholderPage("Payouts", { titleKey: "pendingTitle", back: "payouts" });
export { RouteErrorBoundary as ErrorBoundary };
