import type { RouteHandle } from "~/i18n/route-handle";
import { useActionData, useLoaderData, useParams } from "@remix-run/react";
import { Banner, Layout, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { CustomDomainCard, type DomainActionResult } from "~/components/portal/CustomDomainCard";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { CouponSettingsCard } from "~/components/settings/CouponSettingsCard";
import { ShareSettingsCard } from "~/components/settings/ShareSettingsCard";
import { LeakWatchSettingsCard } from "~/components/settings/LeakWatchSettingsCard";
import { leakSettingsSchema } from "~/models/leaks/detect-leak";
import { getLeakSettings, saveLeakSettings } from "~/models/leaks/leak-settings.server";
import { merchantRoute } from "~/door/merchant-route.server";
import { checkCouponValue, couponFields } from "~/models/marketings/coupon-form";
import {
  marketingsSettings,
  saveCampaignCoupon,
  saveShareSettings,
} from "~/models/marketings/marketings-settings.server";
import { shareSettingsSchema } from "~/models/marketings/share-settings";
import { requireFeature } from "~/models/plans/plan-usage.server";
import { planAllows } from "~/models/plans/plans";
import { MAX_IMAGE_BYTES, storeUploadedImage } from "~/models/storage/asset-storage.server";
import { portalDomainAction } from "~/models/portal/portal-domain.server";

// Settings > Marketings: each campaign's coupon settings (the automatic codes
// created in the store when an affiliate is approved), the texts and images
// affiliates share, leak watch (codes used with no other signal, ADR 051) and
// the portal's custom domain (moved here from Portals).
export const handle: RouteHandle = {
  i18n: ["Settings.Marketings", "Campaigns", "Portals", "Settings", "Global", "Plans"],
  title: "Settings.Marketings:title",
};

const query = z.object({ campaign: z.string().max(200).optional() });

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings", query }, async ({ db, shop, query }) => ({
  ...(await marketingsSettings(db, query.campaign)),
  leakWatch: await getLeakSettings(db),
  customDomain: planAllows(shop.pricingPlan, "customDomain"),
}));

// The domain form posts without an intent (Portals shares it): that is a save.
const actionSchema = z.preprocess(
  (body) => (body && typeof body === "object" && !("intent" in body) ? { ...body, intent: "save" } : body),
  z
    .discriminatedUnion("intent", [
      couponFields.extend({ intent: z.literal("coupon") }),
      shareSettingsSchema.extend({ intent: z.literal("share") }),
      leakSettingsSchema.extend({ intent: z.literal("leak_watch") }),
      z.object({
        intent: z.literal("share_upload"),
        image: z
          .instanceof(File, { message: "Choose an image to upload." })
          .refine((file) => file.size <= MAX_IMAGE_BYTES, "Images can be at most 2 MB."),
      }),
      z.object({ intent: z.enum(["save", "verify"]), portalDomain: z.string().max(300).default("") }),
    ])
    .superRefine((body, ctx) => {
      if (body.intent === "coupon") checkCouponValue(body, ctx);
    }),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: actionSchema },
  async ({ db, shop, body }) => {
    switch (body.intent) {
      case "coupon": {
        const { intent: _intent, ...form } = body;
        return { coupon: await saveCampaignCoupon(db, shop.pricingPlan, form) };
      }
      case "share": {
        const { intent: _intent, ...share } = body;
        return { share: await saveShareSettings(db, share) };
      }
      case "leak_watch": {
        const { intent: _intent, ...settings } = body;
        return { leakWatch: await saveLeakSettings(db, settings) };
      }
      case "share_upload": {
        const bytes = new Uint8Array(await body.image.arrayBuffer());
        return { uploaded: await storeUploadedImage(shop.id, body.image.name, bytes) };
      }
      default:
        requireFeature(shop.pricingPlan, "customDomain");
        return { ok: true, intent: body.intent, domain: await portalDomainAction(shop.id, body) };
    }
  },
);

export default function MarketingsSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<DomainActionResult>();
  const { role } = useParams();
  const { t } = useTranslation(["Settings.Marketings", "Plans", "Global"]);
  return (
    <Page title={t("title")} backAction={{ url: `/${role}/settings` }}>
      <Layout>
        <Layout.Section>
          <CouponSettingsCard campaigns={data.campaigns} coupon={data.coupon} />
        </Layout.Section>
        <Layout.Section>
          <ShareSettingsCard share={data.share} creatives={data.creatives} />
        </Layout.Section>
        <Layout.Section>
          <LeakWatchSettingsCard settings={data.leakWatch} />
        </Layout.Section>
        <Layout.Section>
          {data.customDomain ? (
            <CustomDomainCard state={data.domain} result={result} />
          ) : (
            <Banner
              tone="info"
              title={t("Plans:upgradeHeading", { feature: t("Plans:features.customDomain") })}
              action={
                role === "admin"
                  ? { content: t("Plans:upgradeAction"), url: "/admin/plans?upgrade=customDomain" }
                  : undefined
              }
            >
              <p>{t("Plans:errors.feature.customDomain")}</p>
              {data.domain ? <p>{t("Plans:customDomainKept", { domain: data.domain.host })}</p> : null}
            </Banner>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
