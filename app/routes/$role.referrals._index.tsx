import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { ReferralProgramForm } from "~/components/referrals/ReferralProgramForm";
import { merchantRoute } from "~/door/merchant-route.server";
import { referralProgramFormSchema } from "~/models/referrals/program-form";
import { getReferralProgramForm, saveReferralProgramForm } from "~/models/referrals/save-referral-program.server";
import type { RouteHandle } from "~/i18n/route-handle";

// Referrals: the refer-a-friend program (rewards, fraud checks, the storefront
// widget with a live preview). Amounts arrive as typed in the shop currency;
// saveReferralProgramForm converts and checks them (field errors are 422).
export const handle: RouteHandle = {
  i18n: ["Referrals", "Account.Common", "Campaigns", "Global"],
  title: "Referrals:title",
};

export const loader = /* @__PURE__ */ merchantRoute({ area: "referrals", feature: "referAFriend" }, async ({ db }) =>
  getReferralProgramForm(db),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "referrals", feature: "referAFriend", body: referralProgramFormSchema },
  async ({ db, body }) => ({ saved: await saveReferralProgramForm(db, body) }),
);

export default function ReferralProgramSettings() {
  const data = useLoaderData<typeof loader>();
  return <ReferralProgramForm form={data.form} currency={data.currency} />;
}

export { RouteErrorBoundary as ErrorBoundary };
