import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { recordPage } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { requirePayout } from "~/models/shop/tenant-lookups.server";

export const loader = /* @__PURE__ */ recordPage("payouts", idParams("payout"), requirePayout);
export const handle = { i18n: ["Payouts"] };
export default placeholderPage("Payouts", { titleKey: "detailTitle", back: "payouts" });
export { RouteErrorBoundary as ErrorBoundary };
