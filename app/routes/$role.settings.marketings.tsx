import { useActionData, useLoaderData, useParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, InlineStack, Layout, Link, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { CustomDomainCard, type DomainActionResult } from "~/components/portal/CustomDomainCard";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { formatMoney } from "~/lib/money";
import { marketingsSettings } from "~/models/marketings/marketings-settings.server";
import { portalDomainAction, portalDomainFormSchema } from "~/models/portal/portal-domain.server";
import { useShell } from "~/components/shell-data";
import { planAllows } from "~/models/plans/plans";
import { requireFeature } from "~/models/plans/plan-usage.server";

// Settings > Marketings: the affiliates' automatic coupons (created in the
// store when an affiliate is approved, per the campaign's coupon template)
// and the portal's custom domain (moved here from Portals).
export const handle = { i18n: ["Settings.Marketings", "Portals", "Settings", "Global", "Plans"] };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db, shop }) => ({
  ...(await marketingsSettings(db)),
  customDomain: planAllows(shop.pricingPlan, "customDomain"),
}));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: portalDomainFormSchema },
  async ({ shop, body }) => {
    requireFeature(shop.pricingPlan, "customDomain");
    return { ok: true, intent: body.intent, domain: await portalDomainAction(shop.id, body) };
  },
);

export default function MarketingsSettings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<DomainActionResult>();
  const { role } = useParams();
  const { shop } = useShell();
  const { t } = useTranslation(["Settings.Marketings", "Global"]);
  return (
    <Page title={t("title")} backAction={{ url: `/${role}/settings` }}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t("coupons.title")}
              </Text>
              <Text as="p">{t("coupons.body")}</Text>
              {data.campaigns.map((c) => (
                <InlineStack key={c.id} gap="200" blockAlign="center">
                  <Link url={`/${role}/campaigns/${c.id}`}>{c.name}</Link>
                  <Badge tone={c.couponEnabled ? "success" : undefined}>
                    {c.couponEnabled ? t("coupons.on") : t("coupons.off")}
                  </Badge>
                  {c.couponEnabled ? (
                    <Text as="span" tone="subdued">
                      {t("coupons.template", {
                        value:
                          c.couponDiscountType === "fixed_amount"
                            ? formatMoney(c.couponDiscountValue, { currency: shop.currency, format: shop.money_format })
                            : `${c.couponDiscountValue / 100}%`,
                        code: `${c.couponPrefix}CODE`.toUpperCase(),
                      })}
                    </Text>
                  ) : null}
                </InlineStack>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          {data.customDomain ? (
            <CustomDomainCard state={data.domain} result={result} />
          ) : (
            <Banner
              tone="info"
              title={t("Plans:upgradeHeading", { feature: t("Plans:features.customDomain") })}
              action={
                role === "admin" ? { content: t("Plans:upgradeAction"), url: "/admin/plans?upgrade=customDomain" } : undefined
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
