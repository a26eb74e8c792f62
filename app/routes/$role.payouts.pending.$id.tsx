import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PayoutScreen } from "~/components/payouts/PayoutScreen";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { applyPayoutAction, pendingPayoutId } from "~/models/payouts/payout-admin.server";
import { payoutActionSchema } from "~/models/payouts/payout-list-query";
import { loadPayoutDetail, revealBankDetails } from "~/models/payouts/payouts-list.server";
import type { RouteHandle } from "~/i18n/route-handle";

// /{role}/payouts/pending/{id}: an affiliate's pending payout, every line it
// holds; once it leaves pending, the payout's own page shows it. {id} is
// the pending payout's id, or the affiliate's (their pending payout, if the
// balance has reached the minimum; else the list filtered to them).
export const handle: RouteHandle = { i18n: ["Payouts", "Sales"], title: "Payouts:pendingTitle" };
const params = idParams("payout");

export const loader = /* @__PURE__ */ merchantRoute({ area: "payouts", params }, async ({ db, role, params }) => {
  const id = await pendingPayoutId(db, params.id);
  if (!id) throw redirect(`/${role}/payouts?affiliate_id=${encodeURIComponent(params.id)}`);
  const payout = await loadPayoutDetail(db, id);
  if (payout.status !== "pending") throw redirect(`/${role}/payouts/${payout.id}`);
  return { payout };
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", params, body: payoutActionSchema },
  async ({ db, user, shop, role, params, body }) => {
    if (body.intent === "show-details") return { bankDetails: await revealBankDetails(db, params.id) };
    const next = await applyPayoutAction(db, user, params.id, body, shop.timezone);
    return redirect(`/${role}/payouts/${next.payoutId}`);
  },
);

export default function PendingPayoutPage() {
  const { payout } = useLoaderData<typeof loader>();
  return <PayoutScreen payout={payout} pendingView />;
}

export { RouteErrorBoundary as ErrorBoundary };
