import type { RouteHandle } from "~/i18n/route-handle";
import {
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigate,
  useParams,
  type NavigateFunction,
} from "@remix-run/react";
import { NumericCell } from "~/components/NumericCell";
import {
  BlockStack,
  Box,
  Card,
  ChoiceList,
  IndexTable,
  Link,
  Text,
  useIndexResourceState,
  type IndexTableProps,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { memo, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { dateRangeFilter } from "~/components/dateRangeFilter";
import { useFormat } from "~/i18n/format";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { ListFilters } from "~/components/list/ListFilters";
import { ListPage } from "~/components/list/ListPage";
import { useFetcherResult } from "~/components/list/useFetcherResult";
import { useListScreen } from "~/components/list/useListScreen";
import { SaleStatusBadge, useSaleLabels, type SaleLabels } from "~/components/sales/SaleBadges";
import { merchantRoute } from "~/door/merchant-route.server";
import { AppError } from "~/lib/errors";
import { ATTRIBUTION_SOURCES } from "~/models/sales/sale-statuses";
import { reviewSales, type BulkReviewResult } from "~/models/orders/review-sale.server";
import { saleDecisionSchema, saleListParamsSchema } from "~/models/sales/sale-list-query";
import { listSalesPage } from "~/models/sales/sales-list.server";
import { downloadFile } from "~/components/affiliates/download-file";
import { useShell } from "./$role";

// /{role}/sales: every order of the shop, credited or not, newest first,
// filtered on the server, with approve / deny for the selected sales.
export const handle: RouteHandle = { i18n: ["Sales"], title: "Sales:title" };

const TABS = ["all", "pending", "approved", "denied", "paid", "void"] as const;

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "sales", query: saleListParamsSchema },
  async ({ db, shop, query }) => {
    const [page, openClaims] = await Promise.all([
      listSalesPage(db, shop.timezone, query),
      // The Claims action's count (affiliates' claims of missing orders).
      db.orderClaim.count({ where: { shopId: db.$shopId, status: "open" } }),
    ]);
    if (page.invalidCursor) throw new AppError("not_found", "This page of the list does not exist.");
    return { sales: page.sales, after: page.after, before: page.before, openClaims };
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "sales", body: saleDecisionSchema },
  async ({ db, body }) => ({
    result: await reviewSales(db, body.ids, body.intent),
  }),
);

export default function Sales() {
  const { sales, after, before, openClaims } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation(["Sales", "Global"]);
  const format = useFormat();
  const labels = useSaleLabels();
  const fetcher = useFetcher<{ result?: BulkReviewResult; error?: { message: string } }>();
  const list = useListScreen({ queryParam: "affiliate", tabs: { values: TABS } });
  const { search, update } = list;
  const [toast, setToast] = useState<{ text: string; error?: boolean } | null>(null);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(sales);

  useFetcherResult(fetcher, ({ result, error }) => {
    if (error) setToast({ text: error.message, error: true });
    if (result) {
      const done = t(`bulk.${result.decision}d`, { count: result.changed.length });
      const skipped = result.skipped.length ? ` ${t("bulk.skipped", { count: result.skipped.length })}` : "";
      setToast({ text: done + skipped });
      clearSelection();
    }
  });

  // Stable between renders: IndexTable re-measures its headings (a forced
  // layout) whenever their array changes.
  const headings = useMemo(
    (): IndexTableProps["headings"] => [
      { title: t("columns.order") },
      { title: t("columns.date") },
      { title: t("columns.affiliate") },
      { title: t("columns.source") },
      { title: t("columns.status") },
      { title: t("columns.total"), alignment: "end" },
      { title: t("columns.commission"), alignment: "end" },
    ],
    [t],
  );
  const resourceName = useMemo(() => ({ singular: t("resource.singular"), plural: t("resource.plural") }), [t]);
  const decide = (intent: "approve" | "deny") =>
    fetcher.submit(
      { intent, ids: allResourcesSelected ? sales.map((s) => s.id) : selectedResources },
      { method: "post", encType: "application/json" },
    );

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
          choices={ATTRIBUTION_SOURCES.map((s) => ({ label: labels.source(s), value: s }))}
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
    <ListPage
      title={t("title")}
      timeZone={shop.timezone}
      secondaryActions={[
        {
          content: openClaims ? t("claims.titleOpen", { count: openClaims }) : t("claims.title"),
          url: `/${role}/sales/claims`,
          id: "sales-claims",
        },
        { content: t("subIds.title"), url: `/${role}/sales/sub-ids` },
        { content: t("leaks.title"), url: `/${role}/sales/leaks` },
        {
          content: t("subIds.exportAll"),
          // A file, not a page: fetched with the session token (download-file.ts).
          onAction: () => void downloadFile(`/${role}/sales/export${location.search}`),
        },
      ]}
    >
      <Card padding="0">
        <ListFilters
          list={list}
          placeholder={t("searchPlaceholder")}
          tabLabel={(tab) => (tab === "all" ? t("tabs.all") : labels.status(tab))}
          filters={filters}
          appliedFilters={applied}
          clearKeys={["source", "since", "until", "affiliate_id"]}
        />
        <IndexTable
          resourceName={resourceName}
          itemCount={sales.length}
          selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
          onSelectionChange={handleSelectionChange}
          promotedBulkActions={[
            { content: t("actions.approve"), onAction: () => decide("approve") },
            { content: t("actions.deny"), onAction: () => decide("deny") },
          ]}
          loading={list.loading || fetcher.state !== "idle"}
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
          headings={headings}
          pagination={list.cursors(after, before)}
        >
          {sales.map((sale, index) => (
            <SaleRow
              key={sale.id}
              sale={sale}
              index={index}
              selected={selectedResources.includes(sale.id)}
              role={role}
              timeZone={shop.timezone}
              labels={labels}
              format={format}
              navigate={navigate}
            />
          ))}
        </IndexTable>
      </Card>
      {toast ? <AppToast content={toast.text} error={toast.error} onDismiss={() => setToast(null)} /> : null}
    </ListPage>
  );
}

type SaleListRow = ReturnType<typeof useLoaderData<typeof loader>>["sales"][number];

// One row, memoised on its sale and its selection: a tab, the search box or
// a selection elsewhere re-renders the page, not the 25 rows (INP, issue 33).
// `t`, `format` and `navigate` are stable for the page's life.
const SaleRow = memo(function SaleRow({
  sale,
  index,
  selected,
  role,
  timeZone,
  labels,
  format,
  navigate,
}: {
  sale: SaleListRow;
  index: number;
  selected: boolean;
  role: string | undefined;
  timeZone: string;
  labels: SaleLabels;
  format: ReturnType<typeof useFormat>;
  navigate: NavigateFunction;
}) {
  const url = `/${role}/sales/${sale.id}`;
  return (
    <IndexTable.Row id={sale.id} position={index} selected={selected} onClick={() => navigate(url)}>
      <IndexTable.Cell>
        <Link url={url} removeUnderline monochrome dataPrimaryLink>
          <Text as="span" fontWeight="semibold">
            {sale.name}
          </Text>
        </Link>
      </IndexTable.Cell>
      <IndexTable.Cell>{format.date(sale.placedAt, timeZone)}</IndexTable.Cell>
      <IndexTable.Cell>{sale.affiliate ? `${sale.affiliate.name} (${sale.affiliate.code})` : "—"}</IndexTable.Cell>
      {/* Plain text, as a channel in Shopify's order list: the status
          is the one badge a row needs. */}
      <IndexTable.Cell>{labels.source(sale.source)}</IndexTable.Cell>
      <IndexTable.Cell>
        <SaleStatusBadge status={sale.status} label={labels.status(sale.status)} />
      </IndexTable.Cell>
      <NumericCell>{format.money(sale.total, sale.currency)}</NumericCell>
      <NumericCell>{format.money(sale.commission, sale.currency)}</NumericCell>
    </IndexTable.Row>
  );
});

export { RouteErrorBoundary as ErrorBoundary };
