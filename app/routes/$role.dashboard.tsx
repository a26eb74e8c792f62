import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, InlineGrid, Layout, Link, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { formatMoney } from "~/lib/money";
import { requireMerchant } from "~/models/auth/require-merchant.server";
import { getDashboardTotals } from "~/models/dashboard/dashboard-totals.server";
import { useShell } from "./$role";

export const handle = { i18n: ["Dashboard"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "dashboard" });
  return json({ totals: await getDashboardTotals(ctx.shop.id) });
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="heading2xl" id={testId}>
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

export default function Dashboard() {
  const { totals } = useLoaderData<typeof loader>();
  const { shop, role } = useShell();
  const { t } = useTranslation("Dashboard");
  const money = (minor: number) => formatMoney(minor, { currency: shop.currency, format: shop.money_format });
  return (
    <Page title={t("title")}>
      <Layout>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
            <Tile label={t("tiles.revenue")} value={money(totals.revenue)} testId="tile-revenue" />
            <Tile label={t("tiles.commission")} value={money(totals.commission)} testId="tile-commission" />
            <Tile label={t("tiles.sales")} value={String(totals.sales)} testId="tile-sales" />
            <Tile label={t("tiles.clicks")} value={String(totals.clicks)} testId="tile-clicks" />
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("pending.title")}
              </Text>
              <Link url={`/${role}/sales`}>{t("pending.sales", { count: totals.pendingSales })}</Link>
              <Link url={`/${role}/affiliates`}>{t("pending.affiliates", { count: totals.pendingAffiliates })}</Link>
              <Link url={`/${role}/payouts`}>{t("pending.commissions", { count: totals.commissionsAwaitingPayment })}</Link>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Banner tone="info" title={t("notBuilt.title")}>
            <p>{t("notBuilt.body")}</p>
          </Banner>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
