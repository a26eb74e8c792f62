import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineGrid, InlineStack, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { DATE_PRESETS, DEFAULT_PRESET, isDatePreset } from "~/lib/date-presets";
import { useFormat } from "~/i18n/format";
import { accountDashboard } from "~/models/affiliate-account/account-data.server";
import { accountContext } from "~/models/affiliate-account/account-loader.server";

export const handle = { i18n: ["Account.Dashboard", "Account.Common"], portal: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  const raw = new URL(request.url).searchParams.get("range");
  const range = isDatePreset(raw) ? raw : DEFAULT_PRESET;
  const data = await accountDashboard(shop.id, affiliate.id, range, shop.timezone);
  return json({ range, data, money: { currency: shop.currency, format: shop.moneyFormat } });
}

function Chart({ points, label }: { points: { day: string; amount: number }[]; label: string }) {
  const max = Math.max(1, ...points.map((p) => p.amount));
  const w = 600;
  const h = 160;
  const step = points.length > 1 ? w / (points.length - 1) : w;
  const path = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${(i * step).toFixed(1)},${(h - (p.amount / max) * (h - 10)).toFixed(1)}`)
    .join(" ");
  return (
    <svg className="portal-chart" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <path d={path} fill="none" stroke="#008060" strokeWidth="2" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

export default function AccountDashboard() {
  const { range, data, money } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Dashboard");
  const format = useFormat();
  const m = (v: number) => format.money(v, money.currency);
  const tiles = [
    { key: "clicks", value: format.number(data.clicks) },
    { key: "sales", value: format.number(data.sales) },
    { key: "pending", value: m(data.commissions.pending) },
    { key: "approved", value: m(data.commissions.approved) },
    { key: "paid", value: m(data.commissions.paid) },
    { key: "balance", value: m(data.balance.approved) },
  ];
  return (
    <AccountPage title={t("title")}>
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
          <Chart points={data.chart} label={t("chartTitle")} />
        </BlockStack>
      </Card>
    </AccountPage>
  );
}
