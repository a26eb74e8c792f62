import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AffiliateDetailView } from "~/components/affiliates/AffiliateDetailView";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { getConfig } from "~/config.server";
import { canUseArea } from "~/lib/areas";
import { AppError } from "~/lib/errors";
import { handleApi, loadOrThrow } from "~/lib/http.server";
import {
  listCampaignChoices,
  readAffiliateForm,
  saveAffiliate,
  setAffiliatesStatus,
} from "~/models/affiliates/admin-affiliates.server";
import { STATUS_ACTIONS, type StatusAction } from "~/models/affiliates/admin-schemas";
import { loadAffiliateDetail } from "~/models/affiliates/affiliate-detail.server";
import { ID_PATTERN } from "~/models/api/schemas";
import { referralLinks } from "~/models/api/serializers";
import { requireMerchant } from "~/models/auth/require-merchant.server";
import { findAffiliate } from "~/models/shop/tenant-lookups.server";

export const handle = { i18n: ["Affiliates", "Global"] };

/** Ids are cuids; anything else cannot exist and must not reach the database. */
function affiliateId(raw: string | undefined): string {
  if (!raw || !ID_PATTERN.test(raw)) throw new AppError("not_found", "No affiliate with this id.");
  return raw;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "affiliates" });
  return loadOrThrow(async () => {
    const withSales = canUseArea(ctx.user.role, ctx.user.permissions, "sales");
    const detail = await loadAffiliateDetail(ctx.shop.id, affiliateId(params.id), { withSales });
    const links = referralLinks(detail.affiliate.referralCode, {
      appUrl: getConfig().appUrl,
      shopDomain: ctx.shop.domain,
      referralParam: ctx.shop.referralParam,
    });
    return json({ ...detail, links, campaigns: await listCampaignChoices(ctx.shop.id) });
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "affiliates" });
  return handleApi(async () => {
    const id = affiliateId(params.id);
    if (!(await findAffiliate(ctx.shop.id, id))) throw new AppError("not_found", "No affiliate with this id.");
    const form = await request.formData().catch(() => {
      throw new AppError("bad_request", "The form could not be read.");
    });
    const intent = form.get("intent");
    if (typeof intent === "string" && (STATUS_ACTIONS as readonly string[]).includes(intent)) {
      const result = await setAffiliatesStatus(ctx.shop.id, [id], intent as StatusAction);
      if (!result.changed) throw new AppError("conflict", "This action does not apply to the affiliate's status.");
      return json({ intent, ...result });
    }
    if (intent === "update") {
      await saveAffiliate(ctx.shop.id, id, readAffiliateForm(form));
      return json({ intent, saved: true });
    }
    throw new AppError("bad_request", "Unknown action.");
  });
}

export default function AffiliateDetailPage() {
  const data = useLoaderData<typeof loader>();
  return <AffiliateDetailView data={data} />;
}

export { RouteErrorBoundary as ErrorBoundary };
