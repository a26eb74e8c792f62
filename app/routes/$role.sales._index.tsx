import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useNavigate, useNavigation, useParams } from "@remix-run/react";
import { NumericCell } from "~/components/NumericCell";
import {
  BlockStack,
  Box,
  Card,
  ChoiceList,
  IndexFilters,
  IndexTable,
  Link,
  Page,
  Text,
  useIndexResourceState,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { dateRangeFilter } from "~/components/dateRangeFilter";
import { useFormat } from "~/i18n/format";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { useListSearch } from "~/components/useListSearch";
import { SaleStatusBadge, saleSourceLabel } from "~/components/sales/SaleBadges";
import { merchantRoute } from "~/door/merchant-route.server";
import { AppError } from "~/lib/errors";
import { displayZone } from "~/lib/shop-day";
import { ATTRIBUTION_SOURCES } from "~/models/sales/sale-statuses";
import { reviewSales, type BulkReviewResult } from "~/models/orders/review-sale.server";
import { saleDecisionSchema, saleListParamsSchema } from "~/models/sales/sale-list-query";
import { listSalesPage } from "~/models/sales/sales-list.server";
import { useShell } from "./$role";

// /{role}/sales: every order of the shop, credited or not, newest first,
// filtered on the server, with approve / deny for the selected sales.
export const handle: RouteHandle = { i18n: ["Sales"], title: "Sales:title" };

const TABS = ["all", "pending", "approved", "denied", "paid", "void"] as const;

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "sales", query: saleListParamsSchema },
  async ({ db, shop, query }) => {
    const page = await listSalesPage(db, shop.timezone, query);
    if (page.invalidCursor) throw new AppError("not_found", "This page of the list does not exist.");
    return { sales: page.sales, after: page.after, before: page.before };
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "sales", body: saleDecisionSchema },
  async ({ db, body }) => ({
    result: await reviewSales(db, body.ids, body.intent),
  }),
);

export default function Sales() {
  const { sales, after, before } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { t } = useTranslation(["Sales", "Global"]);
  const format = useFormat();
  const { mode, setMode } = useSetIndexFiltersMode();
  const fetcher = useFetcher<{ result?: BulkReviewResult; error?: { message: string } }>();
  const { search, update, query, setQuery, pagination } = useListSearch("affiliate");
  const [toast, setToast] = useState<{ text: string; error?: boolean } | null>(null);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(sales);
  const status = search.get("status") ?? "all";
  const loading = navigation.state === "loading" && navigation.location.pathname === `/${role}/sales`;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const { result, error } = fetcher.data;
    if (error) setToast({ text: error.message, error: true });
    if (result) {
      const done = t(`bulk.${result.decision}d`, { count: result.changed.length });
      const skipped = result.skipped.length ? ` ${t("bulk.skipped", { count: result.skipped.length })}` : "";
      setToast({ text: done + skipped });
      clearSelection();
    }
    // Only a finished submission should raise a toast.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  const decide = (intent: "approve" | "deny") =>
    fetcher.submit(
      { intent, ids: allResourcesSelected ? sales.map((s) => s.id) : selectedResources },
      { method: "post", encType: "application/json" },
    );
  const money = (minor: number, currency: string) => format.money(minor, currency);
  const date = (iso: string) => format.date(iso, shop.timezone);

  const source = search.get("source");
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
  const filters = [
    {
      key: "source",
      label: t("filters.source"),
      filter: (
        <ChoiceList
          title={t("filters.source")}
          titleHidden
          choices={ATTRIBUTION_SOURCES.map((s) => ({ label: t(`sources.${s}`), value: s }))}
          selected={source ? [source] : []}
          onChange={(v) => update({ source: v[0] ?? null })}
        />
      ),
      shortcut: true,
    },
    dateRange.filter,
  ];
  const applied = [
    ...(source
      ? [
          {
            key: "source",
            label: `${t("filters.source")}: ${t(`sources.${source}`)}`,
            onRemove: () => update({ source: null }),
          },
        ]
      : []),
    ...dateRange.applied,
  ];

  return (
    <Page title={t("title")} subtitle={t("Global:timeZoneNote", { zone: displayZone(shop.timezone) })} fullWidth>
      <Card padding="0">
        <IndexFilters
          queryValue={query}
          queryPlaceholder={t("searchPlaceholder")}
          onQueryChange={setQuery}
          onQueryClear={() => setQuery("")}
          tabs={TABS.map((tab, index) => ({
            id: tab,
            index,
            content: tab === "all" ? t("tabs.all") : t(`statuses.${tab}`),
            isLocked: true,
          }))}
          selected={Math.max(0, TABS.indexOf(status as (typeof TABS)[number]))}
          onSelect={(index) => update({ status: TABS[index] === "all" ? null : TABS[index]! })}
          filters={filters}
          appliedFilters={applied}
          onClearAll={() => {
            setQuery("");
            update({ source: null, since: null, until: null, affiliate: null, affiliate_id: null });
          }}
          mode={mode}
          setMode={setMode}
          canCreateNewView={false}
          cancelAction={{ onAction: () => setQuery("") }}
          loading={loading}
        />
        <IndexTable
          resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
          itemCount={sales.length}
          selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
          onSelectionChange={handleSelectionChange}
          promotedBulkActions={[
            { content: t("actions.approve"), onAction: () => decide("approve") },
            { content: t("actions.deny"), onAction: () => decide("deny") },
          ]}
          loading={loading || fetcher.state !== "idle"}
          emptyState={
            <Box padding="800">
              <BlockStack gap="200" inlineAlign="center">
                <Text as="p" variant="headingMd">
                  {t("empty.heading")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("empty.body")}
                </Text>
              </BlockStack>
            </Box>
          }
          headings={[
            { title: t("columns.order") },
            { title: t("columns.date") },
            { title: t("columns.affiliate") },
            { title: t("columns.source") },
            { title: t("columns.status") },
            { title: t("columns.total"), alignment: "end" },
            { title: t("columns.commission"), alignment: "end" },
          ]}
          pagination={pagination(after, before)}
        >
          {sales.map((sale, index) => (
            <IndexTable.Row
              id={sale.id}
              key={sale.id}
              position={index}
              selected={selectedResources.includes(sale.id)}
              onClick={() => navigate(`/${role}/sales/${sale.id}`)}
            >
              <IndexTable.Cell>
                <Link url={`/${role}/sales/${sale.id}`} removeUnderline monochrome dataPrimaryLink>
                  <Text as="span" fontWeight="semibold">
                    {sale.name}
                  </Text>
                </Link>
              </IndexTable.Cell>
              <IndexTable.Cell>{date(sale.placedAt)}</IndexTable.Cell>
              <IndexTable.Cell>
                {sale.affiliate ? `${sale.affiliate.name} (${sale.affiliate.code})` : "—"}
              </IndexTable.Cell>
              {/* Plain text, as a channel in Shopify's order list: the status
                  is the one badge a row needs. */}
              <IndexTable.Cell>{saleSourceLabel(t, sale.source)}</IndexTable.Cell>
              <IndexTable.Cell>
                <SaleStatusBadge status={sale.status} />
              </IndexTable.Cell>
              <NumericCell>{money(sale.total, sale.currency)}</NumericCell>
              <NumericCell>{money(sale.commission, sale.currency)}</NumericCell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </Card>
      {toast ? <AppToast content={toast.text} error={toast.error} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
