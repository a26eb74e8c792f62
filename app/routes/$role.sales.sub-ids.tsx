import type { RouteHandle } from "~/i18n/route-handle";
import { Form, useLoaderData, useParams } from "@remix-run/react";
import { BlockStack, Button, Card, DataTable, InlineStack, Pagination, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { ListPage } from "~/components/list/ListPage";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { subIdReportParamsSchema } from "~/models/reports/sub-id-report-query";
import { subIdReport, type Money } from "~/models/reports/sub-id-report.server";
import { downloadFile } from "~/components/affiliates/download-file";
import { useShell } from "./$role";

// /{role}/sales/sub-ids: clicks, QR scans, sales and commission per link
// sub_id over a date range, paged on the server (models/reports).
export const handle: RouteHandle = { i18n: ["Sales"], title: "Sales:subIds.title" };

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "sales", query: subIdReportParamsSchema },
  async ({ db, shop, query }) => subIdReport(db, shop.timezone, query),
);

export default function SubIdReportPage() {
  const report = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const { t } = useTranslation(["Sales", "Global"]);
  const format = useFormat();
  const [since, setSince] = useState(report.since);
  const [until, setUntil] = useState(report.until);
  const money = (list: Money[]) => (list.length ? list.map((m) => format.money(m.amount, m.currency)).join(", ") : "—");
  const range = `since=${report.since}&until=${report.until}`;
  return (
    <ListPage
      title={t("subIds.title")}
      timeZone={shop.timezone}
      backAction={{ content: t("title"), url: `/${role}/sales` }}
      secondaryActions={[
        {
          content: t("subIds.export"),
          onAction: () => void downloadFile(`/${role}/sales/export?${range}`),
        },
      ]}
    >
      <BlockStack gap="400">
        <Card>
          <Form method="get">
            <InlineStack gap="300" blockAlign="end">
              <TextField
                label={t("filters.since")}
                type="date"
                name="since"
                value={since}
                onChange={setSince}
                autoComplete="off"
              />
              <TextField
                label={t("filters.until")}
                type="date"
                name="until"
                value={until}
                onChange={setUntil}
                autoComplete="off"
              />
              <Button submit>{t("subIds.apply")}</Button>
            </InlineStack>
          </Form>
        </Card>
        <Card padding="0">
          {report.rows.length ? (
            <div data-testid="sub-id-report">
              <DataTable
                columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric", "numeric"]}
                headings={[
                  t("subIds.subId"),
                  t("subIds.clicks"),
                  t("subIds.qrClicks"),
                  t("subIds.sales"),
                  t("subIds.revenue"),
                  t("columns.commission"),
                ]}
                rows={report.rows.map((r) => [
                  r.subId,
                  format.number(r.clicks),
                  format.number(r.qrClicks),
                  format.number(r.sales),
                  money(r.revenue),
                  money(r.commission),
                ])}
              />
            </div>
          ) : (
            <div style={{ padding: 16 }}>
              <Text as="p" tone="subdued">
                {t("subIds.empty")}
              </Text>
            </div>
          )}
        </Card>
        {/* One page needs no pager: two greyed-out arrows only look broken. */}
        {report.after || report.next ? (
          <InlineStack align="center">
            <Pagination
              hasPrevious={!!report.after}
              previousURL={`/${role}/sales/sub-ids?${range}`}
              hasNext={!!report.next}
              nextURL={
                report.next ? `/${role}/sales/sub-ids?${range}&after=${encodeURIComponent(report.next)}` : undefined
              }
            />
          </InlineStack>
        ) : null}
        <Text as="p" tone="subdued">
          {t("subIds.help")}
        </Text>
      </BlockStack>
    </ListPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
