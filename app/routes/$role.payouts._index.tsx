import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { NumericCell } from "~/components/NumericCell";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  IndexTable,
  InlineStack,
  Link,
  Modal,
  Select,
  Text,
  useIndexResourceState,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { dateRangeFilter } from "~/components/dateRangeFilter";
import { EmptyMessage } from "~/components/EmptyMessage";
import { PayoutsCsvActions } from "~/components/payouts/PayoutsCsvActions";
import { PayoutStatusBadge } from "~/components/payouts/PayoutBadges";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { ListFilters } from "~/components/list/ListFilters";
import { ListPage } from "~/components/list/ListPage";
import { useFetcherResult } from "~/components/list/useFetcherResult";
import { useListScreen } from "~/components/list/useListScreen";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { useTranslatedError, type KeyedError } from "~/i18n/messages";
import { totalsByCurrency } from "~/models/payouts/payable-balance";
import { availableMethods, payPayouts } from "~/models/payouts/payout-admin.server";
import { payBatchSchema, payoutListParamsSchema, PAYOUT_TABS } from "~/models/payouts/payout-list-query";
import { listPayoutsPage } from "~/models/payouts/payouts-list.server";
import { useShell } from "./$role";

// /{role}/payouts: the shop's payouts by state. Pending payouts are gathered
// by a job whenever a balance changes (payout-refresh-job.server.ts), so the
// list only reads; "Pay" turns the selected pending payouts into one batch.
export const handle: RouteHandle = { i18n: ["Payouts"], title: "Payouts:title" };

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "payouts", query: payoutListParamsSchema },
  async ({ db, shop, query, user }) => {
    const [page, methods] = await Promise.all([listPayoutsPage(db, shop.timezone, query), availableMethods(db)]);
    return { ...page, methods, isAdmin: user.role === "admin" };
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", body: payBatchSchema },
  async ({ db, user, body }) => ({ paid: await payPayouts(db, user, { ids: body.ids, method: body.method }) }),
);

export default function Payouts() {
  const { payouts, totals, matched, counts, after, before, status, methods, isAdmin } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation(["Payouts", "Global"]);
  const format = useFormat();
  const fetcher = useFetcher<{ paid?: { batchId: string }; error?: KeyedError }>();
  const fetcherError = useTranslatedError(fetcher.data?.error);
  const list = useListScreen({ queryParam: "affiliate", tabs: { values: PAYOUT_TABS } });
  const { search, update } = list;
  const [toast, setToast] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const usable = methods.filter((m) => m.enabled && (isAdmin || !m.adminOnly));
  const [method, setMethod] = useState(usable[0]?.method ?? "manual");
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(payouts);
  const selectedIds = allResourcesSelected ? payouts.map((p) => p.id) : selectedResources;
  const selected = payouts.filter((p) => selectedIds.includes(p.id));
  const selectedTotal = totalsByCurrency(selected);

  useFetcherResult(fetcher, ({ paid }) => {
    if (paid) {
      setToast(t("pay.done"));
      setPaying(false);
      clearSelection();
    }
  });

  const since = search.get("since") ?? "";
  const until = search.get("until") ?? "";
  const dateRange = dateRangeFilter(
    {
      date: t("filters.date"),
      since: t("filters.since"),
      until: t("filters.until"),
      applied: (from, to) => t("filters.dateApplied", { since: from, until: to }),
    },
    since,
    until,
    update,
  );
  const filters = [dateRange.filter];
  const applied = dateRange.applied;
  const detailUrl = (id: string) =>
    status === "pending" ? `/${role}/payouts/pending/${id}` : `/${role}/payouts/${id}`;

  return (
    <ListPage title={t("title")} timeZone={shop.timezone}>
      <BlockStack gap="400">
        <Card>
          <InlineStack gap="600" blockAlign="center">
            <BlockStack gap="100">
              <Text as="h2" tone="subdued">
                {t(`totals.${status}`)}
              </Text>
              <Text as="p" variant="headingLg" id="payout-totals">
                {format.moneyTotals(totals, shop.currency)}
              </Text>
            </BlockStack>
            <Text as="p" tone="subdued">
              {t("totals.count", { n: format.number(matched) })}
            </Text>
            <Box minWidth="0">
              <PayoutsCsvActions
                selectedIds={status === "pending" ? selectedIds : []}
                exportable={status === "pending"}
                onExported={clearSelection}
              />
            </Box>
          </InlineStack>
        </Card>
        <Card padding="0">
          <ListFilters
            list={list}
            placeholder={t("searchPlaceholder")}
            tabId={(tab) => `tab-${tab}`}
            tabLabel={(tab) => `${t(`tabs.${tab}`)} (${format.number(counts[tab])})`}
            filters={filters}
            appliedFilters={applied}
            clearKeys={["since", "until", "affiliate_id"]}
          />
          <IndexTable
            resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
            itemCount={payouts.length}
            selectable={status === "pending"}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[{ content: t("pay.action"), onAction: () => setPaying(true) }]}
            loading={list.loading || fetcher.state !== "idle"}
            emptyState={<EmptyMessage heading={t(`empty.${status}`)} body={t("empty.body")} />}
            headings={[
              { title: t("columns.affiliate") },
              { title: t("columns.date") },
              { title: t("columns.lines") },
              { title: t("columns.method") },
              { title: t("columns.status") },
              { title: t("columns.reference") },
              { title: t("columns.amount"), alignment: "end" },
            ]}
            pagination={list.cursors(after, before)}
          >
            {payouts.map((p, index) => (
              <IndexTable.Row
                id={p.id}
                key={p.id}
                position={index}
                selected={selectedResources.includes(p.id)}
                onClick={() => navigate(detailUrl(p.id))}
              >
                <IndexTable.Cell>
                  <Link url={detailUrl(p.id)} removeUnderline monochrome dataPrimaryLink>
                    <Text as="span" fontWeight="semibold">
                      {p.affiliate.name}
                    </Text>
                  </Link>{" "}
                  <Text as="span" tone="subdued">
                    {p.affiliate.email}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>{format.date(p.paidAt ?? p.createdAt, shop.timezone)}</IndexTable.Cell>
                <IndexTable.Cell>{format.number(p.lines)}</IndexTable.Cell>
                <IndexTable.Cell>{p.status === "pending" ? "—" : t(`methods.${p.method}`)}</IndexTable.Cell>
                <IndexTable.Cell>
                  <PayoutStatusBadge status={p.status} />
                </IndexTable.Cell>
                <IndexTable.Cell>{p.reference ?? (p.failureReason ? t("failed") : "—")}</IndexTable.Cell>
                <NumericCell>{format.money(p.amount, p.currency)}</NumericCell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
      </BlockStack>
      <Modal
        open={paying}
        onClose={() => setPaying(false)}
        title={t("pay.title")}
        primaryAction={{
          content: t("pay.confirm", { total: format.moneyTotals(selectedTotal, shop.currency) }),
          disabled: usable.length === 0 || selected.length === 0,
          loading: fetcher.state !== "idle",
          onAction: () =>
            fetcher.submit(
              { intent: "pay", ids: selectedIds, method },
              { method: "post", encType: "application/json" },
            ),
        }}
        secondaryActions={[{ content: t("pay.cancel"), onAction: () => setPaying(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="300">
            {fetcherError ? (
              <Banner tone="critical">
                <p>{fetcherError.message}</p>
              </Banner>
            ) : null}
            <Select
              label={t("pay.method")}
              options={methods.map((m) => ({
                label: t(`methods.${m.method}`),
                value: m.method,
                disabled: !m.enabled || (m.adminOnly && !isAdmin),
              }))}
              value={method}
              onChange={(v) => setMethod(v as typeof method)}
              helpText={t(`pay.help.${method}`)}
            />
            <Text as="p" id="pay-summary">
              {t("pay.summary", { n: selected.length, total: format.moneyTotals(selectedTotal, shop.currency) })}
            </Text>
            {!isAdmin ? (
              <Text as="p" tone="subdued">
                {t("pay.adminOnly")}
              </Text>
            ) : null}
          </BlockStack>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </ListPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
