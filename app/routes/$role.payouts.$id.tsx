import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { recordPage } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { requirePayout } from "~/models/shop/tenant-lookups.server";

const params = idParams("payout");
export const loader = /* @__PURE__ */ recordPage("payouts", params, requirePayout);
export const handle = { i18n: ["Payouts"] };
export default placeholderPage("Payouts", { titleKey: "detailTitle", back: "payouts" });
export { RouteErrorBoundary as ErrorBoundary };
