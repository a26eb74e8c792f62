import type { RouteHandle } from "~/i18n/route-handle";
import {
  useFetcher,
  useLoaderData,
  useNavigate,
  useParams,
  useRevalidator,
  type NavigateFunction,
} from "@remix-run/react";
import { NumericCell } from "~/components/NumericCell";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  DataTable,
  IndexTable,
  InlineStack,
  Link,
  Modal,
  ProgressBar,
  Select,
  Text,
  useIndexResourceState,
  type IndexTableProps,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
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
import { translateMessage, useTranslatedError, type KeyedError } from "~/i18n/messages";
import { totalsByCurrency } from "~/models/payouts/payable-balance";
import { availableMethods, payPayouts } from "~/models/payouts/payout-admin.server";
import {
  payBatchSchema,
  payoutListParamsSchema,
  PAYOUT_TABS,
  type PayMethod,
} from "~/models/payouts/payout-list-query";
import { SENDING_METHODS } from "~/models/payouts/payout-states";
import { listBatchesInProgress, listBelowMinimum, listPayoutsPage } from "~/models/payouts/payouts-list.server";
import { useShell } from "./$role";
import { taxFormHolds } from "~/models/tax-forms/tax-form-hold.server";
import { rateHoldMessage, rateHolds } from "~/models/payouts/payout-currency.server";
import { ConvertedAmount } from "~/components/payouts/ConvertedAmount";

// /{role}/payouts: the shop's payouts by state. Pending payouts are gathered
// by a job whenever a balance changes (payout-refresh-job.server.ts), so the
// list only reads; "Pay" turns the selected pending payouts into one batch.
export const handle: RouteHandle = { i18n: ["Payouts", "Tax"], title: "Payouts:title" };

const SENDING = new Set<string>(SENDING_METHODS);
const noBatches: Awaited<ReturnType<typeof listBatchesInProgress>> = [];

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "payouts", query: payoutListParamsSchema },
  async ({ db, shop, query, user }) => {
    const [page, methods, belowMinimum, batches] = await Promise.all([
      listPayoutsPage(db, shop.timezone, query),
      availableMethods(db),
      (query.status ?? "pending") === "pending" ? listBelowMinimum(db) : null,
      query.status === "processing" ? listBatchesInProgress(db) : noBatches,
    ]);
    // Pending payouts that wait for the affiliate's tax form (Settings › Tax forms) say so.
    // (The page's rows are what the holds look at: no second read of them.)
    const pending = page.payouts.filter((p) => p.status === "pending");
    const [taxHolds, rateHeld] = await Promise.all([
      taxFormHolds(db, shop.id, pending),
      rateHolds(db, shop.id, pending),
    ]);
    const held = Object.fromEntries(taxHolds);
    // ...and those that wait for an exchange rate into the affiliate's currency (ADR 052).
    const noRate = Object.fromEntries([...rateHeld].map(([id, hold]) => [id, rateHoldMessage(hold)]));
    return { ...page, methods, belowMinimum, batches, held, noRate, isAdmin: user.role === "admin" };
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "payouts", body: payBatchSchema },
  async ({ db, user, body }) => ({ paid: await payPayouts(db, user, { ids: body.ids, method: body.method }) }),
);

export default function Payouts() {
  const {
    payouts,
    totals,
    matched,
    counts,
    after,
    before,
    status,
    methods,
    isAdmin,
    belowMinimum,
    batches,
    held,
    noRate,
  } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  // While a sender works through a batch, its progress bar follows (the list reloads every few seconds).
  const sending = batches.some((b) => b.settled < b.total && SENDING.has(b.method));
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, 4000);
    return () => clearInterval(timer);
  }, [sending, revalidator]);
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
  // The Pay dialog keeps what it pays and the method in its own state, so
  // opening it renders the dialog, not the list behind it (INP, issue 33).
  const payDialog = useRef<PayDialogHandle>(null);
  const { submit } = fetcher;
  const pay = useCallback(
    (ids: string[], method: PayMethod) =>
      submit({ intent: "pay", ids, method }, { method: "post", encType: "application/json" }),
    [submit],
  );
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(payouts);
  const selectedIds = allResourcesSelected ? payouts.map((p) => p.id) : selectedResources;
  const selected = payouts.filter((p) => selectedIds.includes(p.id));

  useFetcherResult(fetcher, ({ paid }) => {
    if (paid) {
      setToast(t("pay.done"));
      payDialog.current?.close();
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
  // Stable between renders: IndexTable re-measures its headings (a forced
  // layout) whenever their array changes.
  const headings = useMemo(
    (): IndexTableProps["headings"] => [
      { title: t("columns.affiliate") },
      { title: t("columns.date") },
      { title: t("columns.lines") },
      { title: t("columns.method") },
      { title: t("columns.status") },
      { title: t("columns.reference") },
      { title: t("columns.amount"), alignment: "end" },
    ],
    [t],
  );
  const resourceName = useMemo(() => ({ singular: t("resource.singular"), plural: t("resource.plural") }), [t]);
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
        {batches.length > 0 ? (
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t("batches.title")}
              </Text>
              {batches.map((b) => (
                <BlockStack gap="100" key={b.id}>
                  <InlineStack align="space-between" gap="200">
                    <Text as="span" fontWeight="semibold">
                      {t(`methods.${b.method}`)} · {format.dateTime(b.createdAt, shop.timezone)}
                      {b.createdBy === "schedule" ? ` · ${t("actors.schedule")}` : ""}
                    </Text>
                    <Text as="span" tone="subdued" id={`batch-progress-${b.id}`}>
                      {t("batches.progress", {
                        settled: format.number(b.settled),
                        total: format.number(b.total),
                        paid: format.number(b.paid),
                        failed: format.number(b.failed),
                      })}
                    </Text>
                  </InlineStack>
                  <ProgressBar
                    progress={b.total ? Math.round((b.settled / b.total) * 100) : 0}
                    size="small"
                    tone={b.failed > 0 ? "critical" : "primary"}
                    ariaLabelledBy={`batch-progress-${b.id}`}
                  />
                </BlockStack>
              ))}
            </BlockStack>
          </Card>
        ) : null}
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
            resourceName={resourceName}
            itemCount={payouts.length}
            selectable={status === "pending"}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[
              {
                content: t("pay.action"),
                onAction: () =>
                  payDialog.current?.open({
                    ids: selected.map((p) => p.id),
                    n: selected.length,
                    total: totalsByCurrency(selected),
                  }),
              },
            ]}
            loading={list.loading || fetcher.state !== "idle"}
            emptyState={<EmptyMessage heading={t(`empty.${status}`)} body={t("empty.body")} />}
            headings={headings}
            pagination={list.cursors(after, before)}
          >
            {payouts.map((p, index) => (
              <PayoutRow
                key={p.id}
                payout={p}
                index={index}
                selected={selectedResources.includes(p.id)}
                url={detailUrl(p.id)}
                held={held[p.id]}
                noRate={noRate[p.id]}
                timeZone={shop.timezone}
                t={t}
                format={format}
                navigate={navigate}
              />
            ))}
          </IndexTable>
        </Card>
        {belowMinimum && belowMinimum.lines > 0 ? (
          <BelowMinimumCard belowMinimum={belowMinimum} role={role} currency={shop.currency} t={t} format={format} />
        ) : null}
      </BlockStack>
      <PayDialog
        ref={payDialog}
        methods={methods}
        isAdmin={isAdmin}
        role={role}
        currency={shop.currency}
        submitting={fetcher.state === "submitting"}
        error={fetcherError?.message}
        onPay={pay}
        t={t}
        format={format}
      />
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </ListPage>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Format = ReturnType<typeof useFormat>;

// One row, memoised on its payout and its selection: opening the Pay
// dialog, a tab or the search box re-renders the page, not every row (INP,
// issue 33). `t`, `format` and `navigate` are stable for the page's life.
const PayoutRow = memo(function PayoutRow({
  payout: p,
  index,
  selected,
  url,
  held,
  noRate,
  timeZone,
  t,
  format,
  navigate,
}: {
  payout: LoaderData["payouts"][number];
  index: number;
  selected: boolean;
  url: string;
  held: string | undefined;
  noRate: LoaderData["noRate"][string] | undefined;
  timeZone: string;
  t: TFunction;
  format: Format;
  navigate: NavigateFunction;
}) {
  return (
    <IndexTable.Row id={p.id} position={index} selected={selected} onClick={() => navigate(url)}>
      <IndexTable.Cell>
        <Link url={url} removeUnderline monochrome dataPrimaryLink>
          <Text as="span" fontWeight="semibold">
            {p.affiliate.name}
          </Text>
        </Link>{" "}
        <Text as="span" tone="subdued">
          {p.affiliate.email}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>{format.date(p.paidAt ?? p.createdAt, timeZone)}</IndexTable.Cell>
      <IndexTable.Cell>{format.number(p.lines)}</IndexTable.Cell>
      <IndexTable.Cell>
        {p.status === "pending" ? (
          // What Pay with "each affiliate's own method" and auto-pay will use.
          <BlockStack gap="050">
            <Text as="span">{t(`methods.${p.payTo.method}`)}</Text>
            <Text as="span" tone={p.payTo.source === "choice" ? "subdued" : "caution"} variant="bodySm">
              {p.payTo.source === "choice"
                ? (p.payTo.detail ?? t("methodSource.choice"))
                : t("methodSource.defaultShort")}
            </Text>
          </BlockStack>
        ) : (
          t(`methods.${p.method}`)
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <PayoutStatusBadge status={p.status} />
        {held ? (
          <Text as="p" tone="caution" variant="bodySm" id={`tax-hold-${p.id}`}>
            {t(`Tax:hold.${held}`)}
          </Text>
        ) : null}
        {noRate ? (
          <Text as="p" tone="caution" variant="bodySm" id={`rate-hold-${p.id}`}>
            {translateMessage(t, noRate)}
          </Text>
        ) : null}
      </IndexTable.Cell>
      <IndexTable.Cell>{p.reference ?? (p.failureReason ? t("failed") : "—")}</IndexTable.Cell>
      <NumericCell>
        {format.money(p.amount, p.currency)}
        {p.converted ? (
          <ConvertedAmount converted={p.converted} from={p.currency} timeZone={timeZone} id={`converted-${p.id}`} />
        ) : null}
      </NumericCell>
    </IndexTable.Row>
  );
});

// The balances under the minimum. Memoised: its DataTable measures every
// cell through refs on each render, which a dialog opening above it paid for.
const BelowMinimumCard = memo(function BelowMinimumCard({
  belowMinimum,
  role,
  currency,
  t,
  format,
}: {
  belowMinimum: NonNullable<LoaderData["belowMinimum"]>;
  role: string | undefined;
  currency: string;
  t: TFunction;
  format: Format;
}) {
  return (
    <Card padding="0">
      <Box padding="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("belowMinimum.title", { minimum: format.money(belowMinimum.minimum, currency) })}
          </Text>
          <Text as="p" tone="subdued" id="below-minimum">
            {t("belowMinimum.body", {
              lines: format.number(belowMinimum.lines),
              total: format.moneyTotals(belowMinimum.totals, currency),
            })}
          </Text>
        </BlockStack>
      </Box>
      <DataTable
        columnContentTypes={["text", "numeric", "numeric"]}
        headings={[t("columns.affiliate"), t("columns.lines"), t("belowMinimum.balance")]}
        rows={belowMinimum.rows.map((r) => [
          <Link key={r.affiliateId} url={`/${role}/affiliates/${r.affiliateId}`} removeUnderline>
            {r.name}
          </Link>,
          format.number(r.lines),
          format.money(r.amount, r.currency),
        ])}
        footerContent={belowMinimum.more ? t("belowMinimum.more") : undefined}
      />
    </Card>
  );
});

/** What the Pay dialog pays, taken when it opens. */
interface Paying {
  ids: string[];
  n: number;
  total: ReturnType<typeof totalsByCurrency>;
}
interface PayDialogHandle {
  open: (paying: Paying) => void;
  close: () => void;
}

// The Pay dialog. What it pays is taken when it opens: the list reloading
// behind it (the paid payouts leaving the tab) does not change what it shows.
const PayDialog = memo(
  forwardRef<
    PayDialogHandle,
    {
      methods: LoaderData["methods"];
      isAdmin: boolean;
      role: string | undefined;
      currency: string;
      submitting: boolean;
      error: string | undefined;
      onPay: (ids: string[], method: PayMethod) => void;
      t: TFunction;
      format: Format;
    }
  >(function PayDialog({ methods, isAdmin, role, currency, submitting, error, onPay, t, format }, ref) {
    const [paying, setPaying] = useState<Paying | null>(null);
    const [method, setMethod] = useState<PayMethod>("choice");
    useImperativeHandle(ref, () => ({ open: setPaying, close: () => setPaying(null) }), []);
    const usable = methods.filter((m) => m.enabled && (isAdmin || !m.adminOnly));
    return (
      <Modal
        open={paying !== null}
        onClose={() => setPaying(null)}
        title={t("pay.title")}
        primaryAction={{
          content: t("pay.confirm", { total: format.moneyTotals(paying?.total ?? [], currency) }),
          disabled: usable.length === 0 || !paying?.n,
          loading: submitting,
          onAction: () => onPay(paying?.ids ?? [], method),
        }}
        secondaryActions={[{ content: t("pay.cancel"), onAction: () => setPaying(null) }]}
      >
        <Modal.Section>
          <BlockStack gap="300">
            {error ? (
              <Banner tone="critical">
                <p>{error}</p>
              </Banner>
            ) : null}
            <Select
              label={t("pay.method")}
              options={[
                { label: t("pay.choice"), value: "choice" },
                ...methods.map((m) => ({
                  label:
                    m.refusal === "not_connected"
                      ? t("pay.notConnected", { method: t(`methods.${m.method}`) })
                      : t(`methods.${m.method}`),
                  value: m.method,
                  disabled: !m.enabled || (m.adminOnly && !isAdmin),
                })),
              ]}
              value={method}
              onChange={(v) => setMethod(v as PayMethod)}
              helpText={t(`pay.help.${method}`)}
            />
            {methods.some((m) => m.method === "paypal" && m.refusal === "not_connected") ? (
              <Text as="p" tone="subdued" id="pay-paypal-hint">
                {t("pay.paypalHint")} <Link url={`/${role}/settings/payment`}>{t("pay.paypalHintLink")}</Link>
              </Text>
            ) : null}
            <Text as="p" id="pay-summary">
              {t("pay.summary", { n: paying?.n ?? 0, total: format.moneyTotals(paying?.total ?? [], currency) })}
            </Text>
            {!isAdmin ? (
              <Text as="p" tone="subdued">
                {t("pay.adminOnly")}
              </Text>
            ) : null}
          </BlockStack>
        </Modal.Section>
      </Modal>
    );
  }),
);

export { RouteErrorBoundary as ErrorBoundary };
