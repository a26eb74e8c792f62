import { placeholderPage } from "~/components/PlaceholderPage";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaLoader } from "~/models/auth/area-loader.server";

export const loader = areaLoader("referrals");
export const handle = { i18n: ["Referrals.ReferralHistory"] };
export default placeholderPage("Referrals.ReferralHistory", { titleKey: "title", back: "referrals" });
export { RouteErrorBoundary as ErrorBoundary };
