import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Card,
  InlineStack,
  Layout,
  Link,
  Page,
  ResourceItem,
  ResourceList,
  Text,
} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { requireFeature } from "~/models/plans/plan-usage.server";
import { portalOverview } from "~/models/portal/portal-admin.server";
import { portalDomainAction, portalDomainFormSchema } from "~/models/portal/portal-domain.server";

// Portals: the affiliate landing, sign-up and login pages the merchant edits,
// the three ways affiliates reach them; the custom domain is set under
// Settings > Marketings (its action stays here for forms posted before the move).
export const handle: RouteHandle = { i18n: ["Portals"], title: "Portals:title" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "portals" }, async ({ shop }) => portalOverview(shop));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "portals", body: portalDomainFormSchema },
  async ({ shop, body }) => {
    requireFeature(shop.pricingPlan, "customDomain");
    return { ok: true, intent: body.intent, domain: await portalDomainAction(shop.id, body) };
  },
);

export default function Portals() {
  const data = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { t } = useTranslation("Portals");
  const state = data.domain;
  return (
    <Page title={t("title")}>
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <ResourceList
              items={data.pages}
              renderItem={(p) => (
                <ResourceItem id={p.kind} url={`/${role}/portals/${p.kind}`} accessibilityLabel={t(`pages.${p.kind}`)}>
                  <InlineStack align="space-between">
                    <Text as="h3" variant="bodyMd" fontWeight="semibold">
                      {t(`pages.${p.kind}`)}
                    </Text>
                    {p.publishedAt ? (
                      <Badge tone={p.unpublished ? "attention" : "success"}>
                        {p.unpublished ? t("unpublishedChanges") : t("published")}
                      </Badge>
                    ) : (
                      <Badge>{t("builtIn")}</Badge>
                    )}
                  </InlineStack>
                </ResourceItem>
              )}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("ways.title")}
              </Text>
              <Text as="p">
                {t("ways.app")}:{" "}
                <a href={data.ways.app} target="_blank" rel="noopener noreferrer">
                  {data.ways.app}
                </a>
              </Text>
              <Text as="p">
                {t("ways.proxy")}: {data.ways.proxy}
              </Text>
              <Text as="p">
                {t("ways.custom")}:{" "}
                {data.ways.custom ??
                  (state?.status === "pending" ? t("ways.pendingCustom", { host: state.host }) : t("ways.noCustom"))}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("domain.title")}
              </Text>
              <Text as="p">{t("domainMoved.body")}</Text>
              <Link url={`/${role}/settings/marketings`}>{t("domainMoved.link")}</Link>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
