import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  BlockStack,
  Button,
  ButtonGroup,
  Card,
  InlineGrid,
  InlineStack,
  Layout,
  List,
  Page,
  Select,
  Text,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { dateTimeFormatIn, useFormat } from "~/i18n/format";
import { z } from "zod";
import { LineChart } from "~/components/charts/LineChart";
import { currencyExponent } from "~/lib/money";
import {
  AffiliateLinksCard,
  FaqCard,
  HelpfulLinksCard,
  PendingCard,
  QuickHelpCard,
  Tile,
} from "~/components/dashboard/DashboardSections";
import { DismissibleBanner } from "~/components/dashboard/DismissibleBanner";
import { FeatureOverviewCard } from "~/components/dashboard/FeatureOverviewCard";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { getConfig } from "~/config.server";
import { affiliateLinks } from "~/lib/affiliate-links";
import { areaCheck, showWelcome, visiblePending } from "~/lib/dashboard-access";
import { DATE_PRESETS, DEFAULT_PRESET } from "~/lib/date-presets";
import { merchantRoute } from "~/door/merchant-route.server";
import { getDashboardData } from "~/models/dashboard/dashboard-totals.server";
import { dismissSetupGuide, dismissSetupSchema, loadSetupGuide } from "~/models/setup/setup-guide.server";
import { SetupGuideCard } from "~/components/dashboard/SetupGuideCard";
import { useShell } from "./$role";

export const handle: RouteHandle = { i18n: ["Dashboard", "FeatureOverview", "Instructions"], title: "Dashboard:title" };

const querySchema = z.object({
  preset: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .enum(DATE_PRESETS, {
        errorMap: () => ({ message: `Unknown date range; use one of: ${DATE_PRESETS.join(", ")}.` }),
      })
      .default(DEFAULT_PRESET),
  ),
});

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "any", query: querySchema },
  async ({ db, shop, user, role, query }) => {
    // Exact whether or not the rollup is fresh (the rest is counted live);
    // the worker's sweep keeps it so (ADR 011).
    const [data, setup] = await Promise.all([
      getDashboardData(shop, query.preset, new Date(), db),
      loadSetupGuide(db, shop.settings),
    ]);
    const config = getConfig();
    return {
      preset: query.preset,
      analytics: data.analytics,
      // Counts of lists the user cannot open are left out (null), like their links.
      pending: visiblePending(data.pending, areaCheck(user)),
      hasCampaigns: data.hasCampaigns,
      zone: shop.timezone,
      links: affiliateLinks(config.appUrl, shop.domain),
      // Shopify's theme editor deep link that opens App embeds with ours selected.
      themeEditorUrl: `https://${shop.domain}/admin/themes/current/editor?context=apps&activateAppId=${encodeURIComponent(config.SHOPIFY_API_KEY)}/tracking-embed`,
      docsUrl: config.HELP_DOCS_URL ?? `/${role}/help`,
      setup,
    };
  },
);

// Hiding the setup guide is saved for the shop: a settings change, so it
// needs the settings area.
export const action = /* @__PURE__ */ merchantRoute({ area: "settings", body: dismissSetupSchema }, ({ db }) =>
  dismissSetupGuide(db),
);

type Metric = "revenue" | "commission" | "sales" | "clicks";
const METRICS: Metric[] = ["revenue", "commission", "sales", "clicks"];

function periodLabel(key: string, granularity: string, locale: string) {
  // Keys are local wall-clock times written as if UTC, so format them in UTC.
  const date = new Date(
    granularity === "hour" ? `${key}:00:00Z` : granularity === "day" ? `${key}T00:00:00Z` : `${key}-01T00:00:00Z`,
  );
  if (Number.isNaN(date.getTime())) return key;
  const options: Intl.DateTimeFormatOptions =
    granularity === "hour"
      ? { hour: "numeric", timeZone: "UTC" }
      : granularity === "day"
        ? { month: "short", day: "numeric", timeZone: "UTC" }
        : { month: "short", year: "numeric", timeZone: "UTC" };
  return dateTimeFormatIn(locale, options).format(date);
}

export default function Dashboard() {
  const {
    preset,
    analytics,
    pending,
    hasCampaigns,
    zone,
    links: affiliateUrls,
    themeEditorUrl,
    docsUrl,
    setup,
  } = useLoaderData<typeof loader>();
  const { shop, role, mode, supportEmail, productName, user } = useShell();
  const can = areaCheck(user);
  const { t, i18n } = useTranslation("Dashboard");
  const format = useFormat();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const [metric, setMetric] = useState<Metric>("revenue");
  const money = (minor: number) => format.money(minor, shop.currency);
  const totals = analytics.totals;
  const isMoney = metric === "revenue" || metric === "commission";
  const lastDay = new Date(new Date(analytics.range.end).getTime() - 1);
  const loading = navigation.state === "loading" && navigation.location?.pathname.endsWith("/dashboard");

  return (
    <Page title={t("title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="300">
            {showWelcome(hasCampaigns, can) ? (
              <DismissibleBanner
                flag="show.dashboard"
                title={t("banners.welcome.title")}
                tone="info"
                action={{ content: t("banners.welcome.action"), url: `/${role}/campaigns/new` }}
              >
                <p>{t("banners.welcome.body")}</p>
              </DismissibleBanner>
            ) : null}
            {/* Its steps are the admin's (settings, payments...); staff without settings do not get it. */}
            {can("settings") && !setup.dismissed && !setup.complete ? (
              <SetupGuideCard guide={setup} role={role} themeEditorUrl={themeEditorUrl} />
            ) : null}
            {/* Once the embed has shown it works (a tracked visit or sale), the reminder is moot. */}
            {setup.steps.find((s) => s.key === "appEmbed")?.done ? null : (
              <DismissibleBanner
                flag="show.appEmbed"
                title={t("embed.title")}
                tone="warning"
                action={
                  mode === "embedded"
                    ? { content: t("embed.openEditor"), url: themeEditorUrl, external: true }
                    : undefined
                }
              >
                <BlockStack gap="200">
                  <p>{t("embed.body")}</p>
                  <Text as="p" fontWeight="semibold">
                    {t("embed.stepsTitle")}
                  </Text>
                  <List type="number">
                    {[1, 2, 3, 4].map((n) => (
                      <List.Item key={n}>{t(`embed.step${n}`)}</List.Item>
                    ))}
                  </List>
                  <Text as="p" tone="subdued">
                    {t("embed.notChecked")}
                  </Text>
                </BlockStack>
              </DismissibleBanner>
            )}
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <InlineStack align="space-between" blockAlign="end" gap="300">
            <div style={{ minWidth: 220 }}>
              <Select
                id="preset"
                label={t("range.label")}
                options={DATE_PRESETS.map((p) => ({ label: t(`presets.${p}`), value: p }))}
                value={preset}
                onChange={(value) => {
                  const next = new URLSearchParams(searchParams);
                  next.set("preset", value);
                  setSearchParams(next);
                }}
              />
            </div>
            <Text as="p" tone="subdued" id="range-caption">
              {t("range.caption", {
                start: format.date(analytics.range.start, zone),
                end: format.date(lastDay, zone),
                zone,
              })}
            </Text>
          </InlineStack>
        </Layout.Section>
        <Layout.Section>
          <div style={{ opacity: loading ? 0.5 : 1 }} aria-busy={loading}>
            <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
              <Tile label={t("tiles.revenue")} value={money(totals.revenue)} testId="tile-revenue" />
              <Tile label={t("tiles.commission")} value={money(totals.commission)} testId="tile-commission" />
              <Tile label={t("tiles.sales")} value={format.number(totals.sales)} testId="tile-sales" />
              <Tile label={t("tiles.clicks")} value={format.number(totals.clicks)} testId="tile-clicks" />
            </InlineGrid>
          </div>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {t("chart.title")} ·{" "}
                  {t(
                    analytics.granularity === "hour"
                      ? "chart.byHour"
                      : analytics.granularity === "day"
                        ? "chart.byDay"
                        : "chart.byMonth",
                  )}
                </Text>
                <ButtonGroup variant="segmented">
                  {METRICS.map((m) => (
                    <Button key={m} pressed={metric === m} onClick={() => setMetric(m)}>
                      {t(`chart.metrics.${m}`)}
                    </Button>
                  ))}
                </ButtonGroup>
              </InlineStack>
              <LineChart
                label={t(`chart.metrics.${metric}`)}
                points={analytics.series.map((p) => ({ key: p.key, value: p[metric] }))}
                formatY={(v) => (isMoney ? money(v) : format.number(v))}
                unit={isMoney ? 10 ** currencyExponent(shop.currency) : 1}
                formatX={(key) => periodLabel(key, analytics.granularity, i18n.language)}
              />
              <Text as="p" tone="subdued">
                {t("tiles.explainer")}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <BlockStack gap="400">
            <PendingCard role={role} pending={pending} />
            <AffiliateLinksCard links={affiliateUrls} />
            <QuickHelpCard supportEmail={supportEmail} productName={productName} shopUrl={shop.url} docsUrl={docsUrl} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <BlockStack gap="400">
            {can("settings") ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t("marketplace.title")}
                  </Text>
                  <Text as="p">{t("marketplace.body")}</Text>
                  <InlineStack>
                    <Button url={`/${role}/settings/marketplace`}>{t("marketplace.action")}</Button>
                  </InlineStack>
                </BlockStack>
              </Card>
            ) : null}
            <HelpfulLinksCard role={role} can={can} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            <FeatureOverviewCard role={role} can={can} />
            <FaqCard />
            {can("referrals") ? (
              <DismissibleBanner
                flag="show.featuredApp"
                title={t("banners.featuredApp.title")}
                action={{ content: t("banners.featuredApp.action"), url: `/${role}/referrals` }}
              >
                <p>{t("banners.featuredApp.body")}</p>
              </DismissibleBanner>
            ) : null}
            <DismissibleBanner
              flag="show.recommendationApps"
              title={t("banners.recommendedApps.title")}
              action={{
                content: t("banners.recommendedApps.action"),
                url: "https://apps.shopify.com/",
                external: true,
              }}
            >
              <p>{t("banners.recommendedApps.body")}</p>
            </DismissibleBanner>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
