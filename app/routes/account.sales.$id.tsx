import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, DataTable, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { AccountPage, STATUS_TONE, useAccountTimeZone } from "~/components/portal/AccountPage";
import { AccountPageErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { idParams } from "~/door/params";
import { AppError } from "~/lib/errors";
import { getAccountSale } from "~/models/affiliate-account/account-data.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { attributionFallbackText, attributionReasonText } from "~/models/attribution/attribution-reason";
import { explanationWriter, writeExplanation } from "~/models/commissions/commission-explanation";
import { forAffiliate } from "~/models/affiliate-account/reason-keys";
import { signalsText } from "~/models/attribution/reconcile-signals";

export const handle: RouteHandle = {
  // Account.Reasons: the merchant's reasons and explanations (ADR 043), in
  // every portal language (the Sales namespace has the full-set languages only).
  i18n: ["Account.Sales", "Account.Common", "Account.Reasons"],
  portal: true,
  title: ({ data }) => {
    const name = (data as { sale?: { name?: string } } | undefined)?.sale?.name;
    return name ? { key: "Account.Sales:detailTitle", values: { name } } : "Account.Common:nav.sales";
  },
};

const params = idParams("sale");

export const loader = /* @__PURE__ */ affiliateRoute({ params }, async ({ db, affiliate, shop, params }) => {
  // Another affiliate's or shop's sale is not found, exactly like one that does not exist.
  const sale = await getAccountSale(db, affiliate.id, params.id);
  if (!sale) throw new AppError("not_found", "No sale with this id.");
  return { sale, format: shop.moneyFormat };
});

export default function AccountSale() {
  const { sale } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Account.Sales", "Account.Reasons"]);
  const format = useFormat();
  const m = (v: number) => format.money(v, sale.currency);
  const zone = useAccountTimeZone();
  // The stored keys name the merchant's namespace; the affiliate reads the same sentences from theirs.
  const tr = (key: string, values?: Record<string, unknown>) => t(forAffiliate(key), values) as string;
  const why =
    attributionReasonText(tr, sale.reason, format.number) ||
    attributionFallbackText(tr, sale.attributionSource, sale.affiliateName);
  const explain = (text: string, currency: string) =>
    writeExplanation(text, explanationWriter(tr, format.tag, currency));
  return (
    <AccountPage title={t("detailTitle", { name: sale.name })} dated>
      <Card>
        <BlockStack gap="200">
          <InlineStack gap="200">
            <Text as="span">{t("status")}:</Text>
            <Badge tone={STATUS_TONE[sale.status]}>{t(`statuses.${sale.status}`)}</Badge>
          </InlineStack>
          <Text as="p">
            {t("date")}: {format.dateTime(sale.placedAt, zone)}
          </Text>
          {sale.renewal ? (
            <Text as="p" id="sale-renewal">
              {t("renewal", {
                renewal: format.number(sale.renewal.number),
                started: format.date(sale.renewal.started, zone),
              })}
            </Text>
          ) : null}
          <Text as="p">
            {t("amount")}: {m(sale.subtotal)}
          </Text>
          {sale.presentmentCurrency && sale.presentmentTotal !== null ? (
            // Placed in another currency (Shopify Markets): what the customer paid, and the rate
            // Shopify's two amounts imply; commissions stay in the shop's currency (ADR 040).
            <Text as="p" id="presentment">
              {t("presentment", { amount: format.money(sale.presentmentTotal, sale.presentmentCurrency) })}
              {sale.presentmentRate
                ? ` · 1 ${sale.currency} = ${format.number(Number(sale.presentmentRate), { maximumFractionDigits: 8 })} ${sale.presentmentCurrency}`
                : null}
            </Text>
          ) : null}
          {sale.refundedAmount ? (
            <Text as="p">
              {t("refunded")}: {m(sale.refundedAmount)}
            </Text>
          ) : null}
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("why")}
          </Text>
          <Text as="p" id="sale-reason">
            {why}
          </Text>
          {sale.signals.length ? (
            <Text as="p" id="sale-signals">
              {signalsText(tr, sale.signals, "Account.Reasons")}
            </Text>
          ) : null}
          {sale.status === "pending" && sale.approveAfter ? (
            <Text as="p" tone="subdued" id="sale-hold">
              {t("Account.Reasons:autoApproveOn", { date: format.dateTime(sale.approveAfter, zone) })}
            </Text>
          ) : null}
        </BlockStack>
      </Card>
      <Card padding="0">
        <DataTable
          columnContentTypes={["text", "text", "numeric", "text", "text"]}
          headings={[t("date"), t("kind"), t("commission"), t("status"), t("why")]}
          rows={sale.commissions.map((c) => [
            format.date(c.createdAt, zone),
            t(`kinds.${c.kind}`),
            m(c.amount),
            t(`statuses.${c.status}`),
            <span key="e" data-testid="commission-why" style={{ whiteSpace: "normal" }}>
              {explain(c.explanation, c.currency)}
            </span>,
          ])}
        />
      </Card>
      <a href="/account/sales">{t("back")}</a>
    </AccountPage>
  );
}

export const ErrorBoundary = AccountPageErrorBoundary;
