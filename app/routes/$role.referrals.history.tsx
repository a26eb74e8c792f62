import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useLocation, useNavigate, useNavigation, useParams } from "@remix-run/react";
import {
  Card,
  IndexFilters,
  IndexTable,
  Link,
  Page,
  Text,
  useSetIndexFiltersMode,
  type IndexFiltersProps,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { downloadFile } from "~/components/affiliates/download-file";
import { dateRangeFilter } from "~/components/dateRangeFilter";
import { EmptyMessage } from "~/components/EmptyMessage";
import { ReferralStatusBadge, useRewardText } from "~/components/referrals/ReferralBadges";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { useListSearch } from "~/components/useListSearch";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { AppError } from "~/lib/errors";
import { displayZone } from "~/lib/shop-day";
import { REFERRAL_SORTS, referralHistoryParamsSchema } from "~/models/referrals/referral-history-query";
import { hasReferrals, listReferralsPage } from "~/models/referrals/referral-history.server";
import { REFERRAL_STATUSES } from "~/models/referrals/referral-view";
import { useShell } from "./$role";

// /{role}/referrals/history: every referral of the shop, filtered, sorted and
// paged on the server (25 a page), with a CSV export of the same filters.
export const handle: RouteHandle = {
  i18n: ["Referrals.ReferralHistory", "Global"],
  title: "Referrals.ReferralHistory:title",
};

const TABS = ["all", ...REFERRAL_STATUSES] as const;

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "referrals", feature: "referAFriend", query: referralHistoryParamsSchema },
  async ({ db, shop, query }) => {
    const page = await listReferralsPage(db, shop.timezone, query);
    if (page.invalidCursor) throw new AppError("not_found", "This page of the list does not exist.");
    const filtered = Boolean(query.status || query.q || query.since || query.until || query.after || query.before);
    // An empty first page without filters: is the program simply not in use yet?
    const none = !page.referrals.length && !filtered ? !(await hasReferrals(db)) : false;
    return { referrals: page.referrals, after: page.after, before: page.before, sort: query.sort, none };
  },
);

export default function ReferralHistory() {
  const { referrals, after, before, sort, none } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { t } = useTranslation(["Referrals.ReferralHistory", "Global"]);
  const format = useFormat();
  const rewardText = useRewardText();
  const { mode, setMode } = useSetIndexFiltersMode();
  const { search, update, query, setQuery, pagination } = useListSearch("q");
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const status = search.get("status") ?? "all";
  const since = search.get("since") ?? "";
  const until = search.get("until") ?? "";
  const path = `/${role}/referrals/history`;
  const loading = navigation.state === "loading" && navigation.location.pathname === path;

  const sortOptions: IndexFiltersProps["sortOptions"] = REFERRAL_SORTS.map((value) => {
    const [column, direction] = value.split(" ") as [string, "asc" | "desc"];
    return { label: t(`sort.${column}`), value, directionLabel: t(`sort.${column}_${direction}`) };
  });
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

  const emptyState = none ? (
    <EmptyMessage
      heading={t("empty.heading")}
      body={t("empty.body")}
      action={{ content: t("empty.action"), url: `/${role}/referrals` }}
    />
  ) : (
    <EmptyMessage heading={t("noMatch.heading")} body={t("noMatch.body")} />
  );

  const exportUrl = `${path}/export${location.search}`;
  return (
    <Page
      title={t("title")}
      subtitle={t("Global:timeZoneNote", { zone: displayZone(shop.timezone) })}
      backAction={{ content: t("back"), url: `/${role}/referrals` }}
      secondaryActions={[
        {
          content: t("export.button"),
          loading: exporting,
          disabled: none,
          onAction: () => {
            setExporting(true);
            void downloadFile(exportUrl)
              .then(
                (ok) => setExportFailed(!ok),
                () => setExportFailed(true),
              )
              .finally(() => setExporting(false));
          },
        },
      ]}
      fullWidth
    >
      <Card padding="0">
        <IndexFilters
          sortOptions={sortOptions}
          sortSelected={[sort]}
          onSort={(value) => update({ sort: value[0] === "created desc" ? null : (value[0] ?? null) })}
          queryValue={query}
          queryPlaceholder={t("searchPlaceholder")}
          onQueryChange={setQuery}
          onQueryClear={() => setQuery("")}
          tabs={TABS.map((tab, index) => ({
            id: `referrals-${tab}`,
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
            update({ since: null, until: null });
          }}
          mode={mode}
          setMode={setMode}
          canCreateNewView={false}
          cancelAction={{ onAction: () => setQuery("") }}
          loading={loading}
        />
        <IndexTable
          resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
          itemCount={referrals.length}
          selectable={false}
          loading={loading}
          emptyState={emptyState}
          headings={[
            { title: t("columns.date") },
            { title: t("columns.order") },
            { title: t("columns.advocate") },
            { title: t("columns.friend") },
            { title: t("columns.reward") },
            { title: t("columns.status") },
          ]}
          pagination={after || before ? pagination(after, before) : undefined}
        >
          {referrals.map((referral, index) => (
            <IndexTable.Row
              id={referral.id}
              key={referral.id}
              position={index}
              onClick={() => navigate(`/${role}/referrals/${referral.id}`)}
            >
              <IndexTable.Cell>{format.date(referral.createdAt, shop.timezone)}</IndexTable.Cell>
              <IndexTable.Cell>
                <Link url={`/${role}/referrals/${referral.id}`} removeUnderline monochrome dataPrimaryLink>
                  <Text as="span" fontWeight="semibold">
                    {referral.orderName || "—"}
                  </Text>
                </Link>
              </IndexTable.Cell>
              <IndexTable.Cell>{referral.advocate.email}</IndexTable.Cell>
              <IndexTable.Cell>{referral.friend || "—"}</IndexTable.Cell>
              <IndexTable.Cell>{rewardText(referral.reward)}</IndexTable.Cell>
              <IndexTable.Cell>
                <ReferralStatusBadge status={referral.status} />
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </Card>
      {exportFailed ? <AppToast content={t("export.failed")} error onDismiss={() => setExportFailed(false)} /> : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
