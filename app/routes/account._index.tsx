import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineGrid, InlineStack, ProgressBar, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { currencyExponent } from "~/lib/money";
import { z } from "zod";
import { AccountPage } from "~/components/portal/AccountPage";
import { LineChart } from "~/components/charts/LineChart";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { DATE_PRESETS, DEFAULT_PRESET } from "~/lib/date-presets";
import { accountDashboard } from "~/models/affiliate-account/account-data.server";
import { accountBonusProgress, type BonusProgress } from "~/models/bonuses/account-bonuses.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: ["Account.Dashboard", "Account.Common"],
  portal: true,
  title: "Account.Common:nav.dashboard",
};

// An unknown range shows the default one, as the range picker offers nothing else.
const query = z.object({ range: z.enum(DATE_PRESETS).catch(DEFAULT_PRESET) });

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, query }) => ({
  range: query.range,
  data: await accountDashboard(db, affiliate.id, query.range, shop.timezone),
  bonuses: await accountBonusProgress(db, affiliate, shop),
  money: { currency: shop.currency, format: shop.moneyFormat },
}));

// Progress toward each bonus open to the affiliate, in the current period.
function BonusCard({ bonuses, currency }: { bonuses: BonusProgress[]; currency: string }) {
  const { t } = useTranslation("Account.Dashboard");
  const format = useFormat();
  const amount = (b: BonusProgress, v: number) => (b.metric === "sales" ? format.number(v) : format.money(v, currency));
  const day = (d: string) => format.date(`${d}T12:00:00Z`, "UTC");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("bonuses.title")}
        </Text>
        {bonuses.map((b) => (
          <BlockStack gap="100" key={b.id}>
            <InlineStack align="space-between" blockAlign="center" gap="200">
              <Text as="h3" fontWeight="semibold">
                {b.name}
              </Text>
              {b.reached ? <Badge tone="success">{t("bonuses.reached")}</Badge> : null}
            </InlineStack>
            <ProgressBar
              animated={false}
              progress={Math.round(b.ratio * 100)}
              tone={b.reached ? "success" : "highlight"}
              size="small"
            />
            <InlineStack align="space-between" gap="200">
              <Text as="p" tone="subdued" id={`bonus-progress-${b.id}`}>
                {t("bonuses.progress", { value: amount(b, b.value), target: amount(b, b.threshold) })}
              </Text>
              <Text as="p" tone="subdued">
                {t("bonuses.period", { from: day(b.firstDay), to: day(b.lastDay) })}
              </Text>
            </InlineStack>
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}

export default function AccountDashboard() {
  const { range, data, money, bonuses } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Dashboard");
  const format = useFormat();
  const m = (v: number) => format.money(v, money.currency);
  const tiles = [
    { key: "clicks", value: format.number(data.clicks) },
    { key: "sales", value: format.number(data.sales) },
    { key: "pending", value: m(data.commissions.pending) },
    { key: "approved", value: m(data.commissions.approved) },
    { key: "paid", value: m(data.commissions.paid) },
    { key: "balance", value: format.moneyTotals(data.balance.payable, money.currency) },
  ];
  return (
    <AccountPage title={t("title")} dated>
      <form method="get" action="/account">
        <InlineStack gap="200" blockAlign="end">
          <Select
            label={t("range")}
            name="range"
            value={range}
            onChange={() => undefined}
            options={DATE_PRESETS.map((p) => ({ value: p, label: t(`presets.${p}`) }))}
          />
          <Button submit>{t("apply")}</Button>
        </InlineStack>
      </form>
      <InlineGrid columns={{ xs: 2, md: 3 }} gap="400">
        {tiles.map((tile) => (
          <Card key={tile.key}>
            <BlockStack gap="100">
              <Text as="h2" tone="subdued">
                {t(`tiles.${tile.key}`)}
              </Text>
              <Text as="p" variant="headingLg" id={`tile-${tile.key}`}>
                {tile.value}
              </Text>
            </BlockStack>
          </Card>
        ))}
      </InlineGrid>
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("chartTitle")}
          </Text>
          <LineChart
            points={data.chart.map((p) => ({ key: p.day, value: p.amount }))}
            label={t("chartTitle")}
            interactive={false}
            testId="account-chart"
            formatY={m}
            unit={10 ** currencyExponent(money.currency)}
            formatX={(day) => format.date(`${day}T12:00:00Z`, "UTC")}
          />
        </BlockStack>
      </Card>
      {bonuses.length ? <BonusCard bonuses={bonuses} currency={money.currency} /> : null}
    </AccountPage>
  );
}
