import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AffiliateDetailView } from "~/components/affiliates/AffiliateDetailView";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { getConfig } from "~/config.server";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { canUseArea } from "~/lib/areas";
import { AppError } from "~/lib/errors";
import { listCampaignChoices, saveAffiliate, setAffiliatesStatus } from "~/models/affiliates/admin-affiliates.server";
import { affiliateFormSchema, STATUS_ACTIONS } from "~/models/affiliates/admin-schemas";
import { loadAffiliateDetail } from "~/models/affiliates/affiliate-detail.server";
import { removeAlias } from "~/models/affiliates/referral-aliases.server";
import { referralLinks } from "~/models/api/serializers";
import { listTierMoves } from "~/models/tiers/autotier-settings.server";
import { networkLevel, uplinesOf } from "~/models/networks/network.server";
import { readOnlyRows, requireEditable } from "~/models/plans/plan-usage.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: ["Affiliates", "Global", "Settings", "Plans"],
  title: "Affiliates:detailTitle",
};

const params = idParams("affiliate");

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "affiliates", params },
  async ({ db, shop, user, params }) => {
    const withSales = canUseArea(user.role, user.permissions, "sales");
    const detail = await loadAffiliateDetail(db, params.id, { withSales });
    const links = referralLinks(detail.affiliate.referralCode, {
      appUrl: getConfig().appUrl,
      shopDomain: shop.domain,
      referralParam: shop.referralParam,
    });
    return {
      ...detail,
      links,
      campaigns: await listCampaignChoices(db),
      tierMoves: await listTierMoves(db, params.id),
      network: { uplines: await uplinesOf(db, params.id), downline: await networkLevel(db, params.id) },
      readOnly: (await readOnlyRows(db, shop.pricingPlan, "affiliates", [params.id])).ids.length > 0,
    };
  },
);

const actionSchema = z.union([
  z.object({ intent: z.enum(STATUS_ACTIONS) }),
  affiliateFormSchema.extend({ intent: z.literal("update") }),
  // The code is the one the merchant saw: removing compares it too.
  z.object({ intent: z.literal("removeAlias"), alias_id: z.string().min(1).max(64), code: z.string().min(1).max(64) }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "affiliates", params, body: actionSchema },
  async ({ db, shop, params, body }) => {
    await requireEditable(db, shop.pricingPlan, "affiliates", [params.id]);
    if (body.intent === "update") {
      const { intent, ...form } = body;
      await saveAffiliate(db, params.id, form);
      return { intent, saved: true };
    }
    if (body.intent === "removeAlias") {
      return { intent: body.intent, ...(await removeAlias(db, params.id, { id: body.alias_id, code: body.code })) };
    }
    const result = await setAffiliatesStatus(db, [params.id], body.intent);
    if (!result.changed) throw new AppError("conflict", "This action does not apply to the affiliate's status.");
    return { intent: body.intent, ...result };
  },
);

export default function AffiliateDetailPage() {
  const data = useLoaderData<typeof loader>();
  return <AffiliateDetailView data={data} />;
}

export { RouteErrorBoundary as ErrorBoundary };
