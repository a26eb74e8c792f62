import { useLoaderData } from "@remix-run/react";
import { Badge, Card, DataTable, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { z } from "zod";
import { AccountPage, STATUS_TONE, useAccountTimeZone } from "~/components/portal/AccountPage";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { listAccountSales, SALES_PAGE } from "~/models/affiliate-account/account-data.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { subIdReportParamsSchema } from "~/models/reports/sub-id-report-query";
import { subIdReport, type Money } from "~/models/reports/sub-id-report.server";

export const handle: RouteHandle = {
  // Account.Reasons: the short "why" (how the sale was credited), the merchant's own word for it.
  i18n: ["Account.Sales", "Account.Common", "Account.Reasons"],
  portal: true,
  title: "Account.Common:nav.sales",
};

// A page number that is not one shows the first page (links only ever name real ones).
// `sub` pages the report by sub-id (keyset on the sub-id, see models/reports).
const query = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  sub: subIdReportParamsSchema.shape.after,
});

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, query }) => {
  const [{ total, sales }, subIds] = await Promise.all([
    listAccountSales(db, affiliate.id, query.page),
    // The affiliate's own clicks, sales and commission only.
    subIdReport(db, shop.timezone, { after: query.sub }, { affiliateId: affiliate.id }),
  ]);
  return {
    page: query.page,
    pages: Math.max(1, Math.ceil(total / SALES_PAGE)),
    sales,
    subIds,
    money: { format: shop.moneyFormat },
  };
});

export default function AccountSales() {
  const { page, pages, sales, subIds } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Account.Sales", "Account.Reasons"]);
  const format = useFormat();
  const zone = useAccountTimeZone();
  const money = (list: Money[]) => (list.length ? list.map((m) => format.money(m.amount, m.currency)).join(", ") : "—");
  return (
    <AccountPage title={t("title")} dated>
      <Card padding="0">
        {sales.length === 0 ? (
          <div style={{ padding: 16 }}>
            <Text as="p">{t("empty")}</Text>
          </div>
        ) : (
          <DataTable
            columnContentTypes={["text", "text", "numeric", "numeric", "text", "text"]}
            headings={[t("order"), t("date"), t("amount"), t("commission"), t("status"), t("why")]}
            rows={sales.map((s) => [
              <a key="o" href={`/account/sales/${s.id}`} data-testid="sale-link">
                {s.name}
              </a>,
              format.date(s.placedAt, zone),
              format.money(s.subtotal, s.currency),
              format.money(s.commission, s.currency),
              <div key="s">
                <Badge tone={STATUS_TONE[s.status]}>{t(`statuses.${s.status}`)}</Badge>
                {s.heldCode ? (
                  // A leak flag holds this sale's commission (ADR 051).
                  <div data-testid="sale-held" style={{ maxWidth: 280, whiteSpace: "normal" }}>
                    <Text as="p" tone="caution" variant="bodySm">
                      {t("held", { code: s.heldCode })}
                    </Text>
                  </div>
                ) : null}
              </div>,
              <span key="w" data-testid="sale-why">
                {t(`Account.Reasons:sources.${s.attributionSource as "coupon"}`, { defaultValue: "" })}
              </span>,
            ])}
          />
        )}
      </Card>
      <Text as="p">
        <a href="/account/claims" id="claim-link">
          {t("claims.title")}
        </a>
      </Text>
      {pages > 1 ? (
        <InlineStack gap="300">
          {page > 1 ? <a href={`/account/sales?page=${page - 1}`}>{t("previous")}</a> : null}
          <Text as="span">{t("pageOf", { page, pages })}</Text>
          {page < pages ? <a href={`/account/sales?page=${page + 1}`}>{t("next")}</a> : null}
        </InlineStack>
      ) : null}
      <Card padding="0">
        <div style={{ padding: 16 }}>
          <Text as="h2" variant="headingMd">
            {t("subIds.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("subIds.help", {
              since: format.date(`${subIds.since}T12:00:00Z`, "UTC"),
              until: format.date(`${subIds.until}T12:00:00Z`, "UTC"),
            })}
          </Text>
        </div>
        {subIds.rows.length === 0 ? (
          <div style={{ padding: 16, paddingTop: 0 }}>
            <Text as="p">{t("subIds.empty")}</Text>
          </div>
        ) : (
          <div data-testid="account-sub-ids">
            <DataTable
              columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
              headings={[
                t("subIds.subId"),
                t("subIds.clicks"),
                t("subIds.qrClicks"),
                t("subIds.sales"),
                t("commission"),
              ]}
              rows={subIds.rows.map((r) => [
                r.subId,
                format.number(r.clicks),
                format.number(r.qrClicks),
                format.number(r.sales),
                money(r.commission),
              ])}
            />
          </div>
        )}
      </Card>
      {subIds.after || subIds.next ? (
        <InlineStack gap="300">
          {subIds.after ? <a href={`/account/sales?page=${page}`}>{t("subIds.first")}</a> : null}
          {subIds.next ? (
            <a href={`/account/sales?page=${page}&sub=${encodeURIComponent(subIds.next)}`}>{t("next")}</a>
          ) : null}
        </InlineStack>
      ) : null}
    </AccountPage>
  );
}
