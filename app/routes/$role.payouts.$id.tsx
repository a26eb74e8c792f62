import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PayoutScreen } from "~/components/payouts/PayoutScreen";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { applyPayoutAction } from "~/models/payouts/payout-admin.server";
import { payoutActionSchema } from "~/models/payouts/payout-list-query";
import { loadPayoutDetail, revealBankDetails } from "~/models/payouts/payouts-list.server";
import type { RouteHandle } from "~/i18n/route-handle";

// /{role}/payouts/{id}: one payout, its lines, history and actions.
export const handle: RouteHandle = { i18n: ["Payouts", "Sales"], title: "Payouts:detailTitle" };
const params = idParams("payout");

export const loader = /* @__PURE__ */ merchantRoute({ area: "payouts", params }, async ({ db, params }) => ({
  payout: await loadPayoutDetail(db, params.id),
}));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", params, body: payoutActionSchema },
  async ({ db, user, shop, role, params, body }) => {
    if (body.intent === "show-details") return { bankDetails: await revealBankDetails(db, params.id) };
    const next = await applyPayoutAction(db, user, params.id, body, shop.timezone);
    return redirect(`/${role}/payouts/${next.payoutId}`);
  },
);

export default function PayoutDetailPage() {
  const { payout } = useLoaderData<typeof loader>();
  return <PayoutScreen payout={payout} pendingView={false} />;
}

export { RouteErrorBoundary as ErrorBoundary };
