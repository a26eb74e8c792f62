import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import { Banner, BlockStack, Card, DataTable, InlineStack, Layout, Link, Modal, Page, Text } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { SaleStatusBadge, SourceBadge } from "~/components/sales/SaleBadges";
import { explanationWriter, writeExplanation } from "~/models/commissions/commission-explanation";
import { attributionFallbackText, attributionReasonText } from "~/models/attribution/attribution-reason";
import { signalsText } from "~/models/attribution/reconcile-signals";
import { TableCard } from "~/components/sales/TableCard";
import { WrappingCell } from "~/components/WrappingCell";
import type { ErrorBody } from "~/lib/errors";
import { displayZone } from "~/lib/shop-day";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { reviewSale } from "~/models/orders/review-sale.server";
import { getSaleDetail, type SaleDetail } from "~/models/sales/sale-detail.server";
import { useShell } from "./$role";

// /{role}/sales/{id}: one order, why it was (or was not) credited, its
// commission lines per level, refunds, and approve / deny while pending.
export const handle: RouteHandle = { i18n: ["Sales"], title: "Sales:detailTitle" };

const params = idParams("sale");

export const loader = /* @__PURE__ */ merchantRoute({ area: "sales", params }, async ({ db, params }) => ({
  sale: await getSaleDetail(db, params.id),
}));

const decisionSchema = z.object({ intent: z.enum(["approve", "deny"]) });

export const action = /* @__PURE__ */ merchantRoute(
  { area: "sales", params, body: decisionSchema },
  async ({ db, params, body }) => {
    await reviewSale(db, params.id, body.intent);
    return { decided: body.intent };
  },
);

type Line = SaleDetail["commissions"][number];

export default function SaleScreen() {
  const { sale } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const { t } = useTranslation(["Sales", "Global"]);
  const format = useFormat();
  const fetcher = useFetcher<{ decided?: "approve" | "deny" } & Partial<ErrorBody>>();
  const [confirmDeny, setConfirmDeny] = useState(false);
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.decided) setToast(t(`decided.${fetcher.data.decided}`));
  }, [fetcher.state, fetcher.data, t]);

  const tr = (key: string, values?: Record<string, unknown>) => t(key, values) as string;
  const busy = fetcher.state !== "idle";
  const money = (minor: number) => format.money(minor, sale.currency);
  const when = (iso: string) => format.dateTime(iso, shop.timezone);
  const decide = (intent: "approve" | "deny") =>
    fetcher.submit({ intent }, { method: "post", encType: "application/json" });
  const affiliateLink = (a: Line["affiliate"]) => (
    <Link url={`/${role}/affiliates/${a.id}`}>
      {a.name} ({a.code})
    </Link>
  );
  const lineRows = (lines: Line[], withKind: boolean) =>
    lines.map((l) => [
      withKind ? t(`kinds.${l.kind}`, { defaultValue: l.kind }) : t("level", { level: l.level }),
      affiliateLink(l.affiliate),
      ...(withKind ? [t("level", { level: l.level })] : []),
      money(l.amount),
      <SaleStatusBadge key="s" status={l.status} />,
      <WrappingCell
        key="e"
        text={writeExplanation(
          l.explanation,
          explanationWriter((key, values) => t(key, values) as string, format.tag, l.currency),
        )}
      />,
    ]);
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;

  return (
    <Page
      title={sale.name}
      backAction={{ content: t("title"), url: `/${role}/sales` }}
      titleMetadata={<SaleStatusBadge status={sale.shownStatus} />}
      subtitle={`${t("placedOn", { date: when(sale.placedAt) })} · ${t("Global:timeZoneNote", { zone: displayZone(shop.timezone) })}`}
      primaryAction={
        sale.canApprove
          ? {
              content: t("actions.approve"),
              onAction: () => decide("approve"),
              loading: busy && fetcher.json !== undefined,
            }
          : undefined
      }
      secondaryActions={
        sale.canDeny
          ? [{ content: t("actions.deny"), destructive: true, onAction: () => setConfirmDeny(true), disabled: busy }]
          : []
      }
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {error ? (
              <Banner tone="critical" title={t("notDone")}>
                <p>{error.message}</p>
              </Banner>
            ) : null}
            <Banner tone={sale.status === "pending" ? "warning" : "info"}>
              <p>{t(`statusRule.${sale.shownStatus}`, { date: sale.approveAfter ? when(sale.approveAfter) : "" })}</p>
              {sale.shownStatus === "pending" && sale.approveAfter ? (
                <p>{t("autoApproveOn", { date: when(sale.approveAfter) })}</p>
              ) : null}
            </Banner>
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t("attribution.title")}
                  </Text>
                  <SourceBadge source={sale.attribution.source} />
                </InlineStack>
                <Text as="p" id="attribution-reason">
                  {attributionReasonText(tr, sale.attribution, format.number, (iso) =>
                    format.date(iso, shop.timezone),
                  ) || attributionFallbackText(tr, sale.attribution.source, sale.attribution.affiliate?.name ?? null)}
                </Text>
                {sale.attribution.signals.length ? (
                  <Text as="p" id="attribution-signals">
                    {signalsText(tr, sale.attribution.signals, "Sales")}
                  </Text>
                ) : null}
                {sale.attribution.click ? (
                  <Text as="p" tone="subdued">
                    {t("attribution.click", {
                      date: when(sale.attribution.click.at),
                      url: sale.attribution.click.landingUrl,
                    })}
                  </Text>
                ) : null}
              </BlockStack>
            </Card>
            <TableCard title={t("commissions.title")} emptyText={t("commissions.none")}>
              {sale.commissions.length ? (
                <DataTable
                  columnContentTypes={["text", "text", "numeric", "text", "text"]}
                  headings={[
                    t("columns.level"),
                    t("columns.affiliate"),
                    t("columns.amount"),
                    t("columns.status"),
                    t("columns.explanation"),
                  ]}
                  rows={lineRows(sale.commissions, false)}
                  totals={["", "", money(sale.netCommission), "", ""]}
                  totalsName={{ singular: t("commissions.net"), plural: t("commissions.net") }}
                  showTotalsInFooter
                />
              ) : null}
            </TableCard>
            <TableCard title={t("adjustments.title")} emptyText={t("adjustments.none")}>
              {sale.adjustments.length ? (
                <DataTable
                  columnContentTypes={["text", "text", "text", "numeric", "text", "text"]}
                  headings={[
                    t("columns.kind"),
                    t("columns.affiliate"),
                    t("columns.level"),
                    t("columns.amount"),
                    t("columns.status"),
                    t("columns.explanation"),
                  ]}
                  rows={lineRows(sale.adjustments, true)}
                />
              ) : null}
            </TableCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("order.title")}
              </Text>
              <Text as="p">{t("order.customer", { email: sale.customerEmail ?? t("order.noCustomer") })}</Text>
              {sale.isNewCustomer ? <Text as="p">{t("order.newCustomer")}</Text> : null}
              <Text as="p">{t("order.subtotal", { amount: money(sale.subtotal) })}</Text>
              <Text as="p">{t("order.total", { amount: money(sale.total) })}</Text>
              {sale.presentment ? (
                <Text as="p">
                  {t(sale.presentment.rate ? "order.presentment" : "order.presentmentNoRate", {
                    amount: format.money(sale.presentment.total, sale.presentment.currency),
                    from: sale.currency,
                    to: sale.presentment.currency,
                    rate: sale.presentment.rate,
                  })}
                </Text>
              ) : null}
              {sale.refundedAmount ? (
                <Text as="p">{t("order.refunded", { amount: money(sale.refundedAmount) })}</Text>
              ) : null}
              {sale.discountCodes.length ? (
                <Text as="p">{t("order.codes", { codes: sale.discountCodes.join(", ") })}</Text>
              ) : null}
              {sale.fulfillment ? (
                <Text as="p">
                  {t("order.fulfillment", {
                    status: t(`Global:status.${sale.fulfillment}`, { defaultValue: sale.fulfillment }),
                  })}
                </Text>
              ) : null}
              {sale.cancelledAt ? <Text as="p">{t("order.cancelled", { date: when(sale.cancelledAt) })}</Text> : null}
              <Text as="p" tone="subdued">
                {t("order.shopifyId", { id: sale.orderGid.slice(sale.orderGid.lastIndexOf("/") + 1) })}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
      <Modal
        open={confirmDeny}
        onClose={() => setConfirmDeny(false)}
        title={t("denyConfirm.title", { name: sale.name })}
        primaryAction={{
          content: t("actions.deny"),
          destructive: true,
          onAction: () => {
            setConfirmDeny(false);
            decide("deny");
          },
        }}
        secondaryActions={[{ content: t("denyConfirm.cancel"), onAction: () => setConfirmDeny(false) }]}
      >
        <Modal.Section>
          <Text as="p">{t("denyConfirm.body")}</Text>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
