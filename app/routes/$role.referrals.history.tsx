import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useLocation, useNavigate, useParams } from "@remix-run/react";
import { Card, IndexTable, Link, Text } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { downloadFile } from "~/components/affiliates/download-file";
import { dateRangeFilter } from "~/components/dateRangeFilter";
import { EmptyMessage } from "~/components/EmptyMessage";
import { ReferralStatusBadge, useRewardText } from "~/components/referrals/ReferralBadges";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { ListFilters, sortOptions } from "~/components/list/ListFilters";
import { ListPage } from "~/components/list/ListPage";
import { useListScreen } from "~/components/list/useListScreen";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { AppError } from "~/lib/errors";
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
  const { t } = useTranslation(["Referrals.ReferralHistory", "Global"]);
  const format = useFormat();
  const rewardText = useRewardText();
  const list = useListScreen({ queryParam: "q", tabs: { values: TABS } });
  const { search, update } = list;
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const since = search.get("since") ?? "";
  const until = search.get("until") ?? "";
  const path = `/${role}/referrals/history`;
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
    <ListPage
      title={t("title")}
      timeZone={shop.timezone}
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
    >
      <Card padding="0">
        <ListFilters
          list={list}
          placeholder={t("searchPlaceholder")}
          tabId={(tab) => `referrals-${tab}`}
          tabLabel={(tab) => (tab === "all" ? t("tabs.all") : t(`statuses.${tab}`))}
          sort={{
            options: sortOptions(REFERRAL_SORTS, (key) => t(`sort.${key}`)),
            selected: sort,
            byDefault: "created desc",
          }}
          filters={filters}
          appliedFilters={applied}
          clearKeys={["since", "until"]}
        />
        <IndexTable
          resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
          itemCount={referrals.length}
          selectable={false}
          loading={list.loading}
          emptyState={emptyState}
          headings={[
            { title: t("columns.date") },
            { title: t("columns.order") },
            { title: t("columns.advocate") },
            { title: t("columns.friend") },
            { title: t("columns.reward") },
            { title: t("columns.status") },
          ]}
          pagination={after || before ? list.cursors(after, before) : undefined}
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
    </ListPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
