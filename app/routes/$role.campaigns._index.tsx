import { useFetcher, useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { ADMIN_PAGE_SIZE } from "~/models/pagination/keyset.server";
import { NumericCell } from "~/components/NumericCell";
import { Badge, Box, Card, EmptyState, IndexTable, Link, Text, useIndexResourceState } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { ListFilters } from "~/components/list/ListFilters";
import { ListPage } from "~/components/list/ListPage";
import { useFetcherResult } from "~/components/list/useFetcherResult";
import { useListScreen } from "~/components/list/useListScreen";
import { merchantRoute } from "~/door/merchant-route.server";
import type { CampaignOut } from "~/models/campaigns/campaign-schemas";
import { listCampaignsPage, setCampaignsStatus } from "~/models/campaigns/campaign-admin.server";
import { campaignBulkSchema, campaignListParamsSchema } from "~/models/campaigns/campaign-list-query";
import { planUsage, readOnlyRows, requireEditable } from "~/models/plans/plan-usage.server";
import { listShowsPlanLimit, PlanLimitBanner, ReadOnlyBadge } from "~/components/PlanLimitBanner";
import type { RouteHandle } from "~/i18n/route-handle";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import { useShell } from "./$role";

// /{role}/campaigns: the shop's campaigns, paginated on the server, with
// state tabs and a name search.
export const handle: RouteHandle = {
  i18n: ["Campaigns"],
  // The plan's banner and read-only badges show only over the limit.
  i18nShown: ({ data }) => (listShowsPlanLimit(data) ? ["Plans"] : []),
  title: "Campaigns:title",
};

const TABS = ["all", "active", "draft", "private"] as const;

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "campaigns", query: campaignListParamsSchema },
  async ({ db, shop, query }) => {
    const page = await listCampaignsPage(db, { ...query, query: query.q, limit: ADMIN_PAGE_SIZE });
    const onScreen = page.campaigns.map((c) => c.id);
    return {
      ...page,
      planLimit: await planUsage(db, shop.pricingPlan, "campaigns"),
      readOnly: await readOnlyRows(db, shop.pricingPlan, "campaigns", onScreen),
    };
  },
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "campaigns", body: campaignBulkSchema },
  async ({ db, shop, body }) => {
    await requireEditable(db, shop.pricingPlan, "campaigns", body.ids);
    return { result: await setCampaignsStatus(db, body.ids, body.status) };
  },
);

type BulkData = { result?: { changed: number; status: string } } & Partial<ErrorBody>;

export default function Campaigns() {
  const { campaigns, after, before, planLimit, readOnly } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation(["Campaigns", "Global"]);
  const format = useFormat();
  const list = useListScreen({ queryParam: "q", tabs: { values: TABS }, dropOnChange: ["deleted"] });
  const { search } = list;
  const [toast, setToast] = useState(search.get("deleted") ? t("toast.deleted") : null);
  const fetcher = useFetcher<BulkData>();
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(campaigns);
  const bulkError = useTranslatedError(fetcher.data?.error);
  useFetcherResult(fetcher, ({ result }) => {
    if (bulkError) setToast(bulkError.message);
    if (result) {
      setToast(t("bulk.changed", { count: result.changed, state: t(`states.${result.status}`) }));
      clearSelection();
    }
  });
  const setStatus = (next: "active" | "draft" | "private") => ({
    content: t(`bulk.set.${next}`),
    onAction: () =>
      fetcher.submit(
        {
          intent: "set_status",
          status: next,
          ids: allResourcesSelected ? campaigns.map((c) => c.id) : selectedResources,
        },
        { method: "post", encType: "application/json" },
      ),
  });

  const money = (minor: number) => format.money(minor, shop.currency);
  const commission = (c: Pick<CampaignOut, "commission_type" | "commission_value">) =>
    c.commission_type === "percent"
      ? t("commissionSummary.percent", { value: format.number(c.commission_value / 100) })
      : t(`commissionSummary.${c.commission_type}`, { value: money(c.commission_value) });
  const empty =
    campaigns.length === 0 && list.tab === "all" && !search.get("q") && !search.get("after") && !search.get("before");

  return (
    <ListPage
      title={t("title")}
      timeZone={shop.timezone}
      primaryAction={{ content: t("create"), url: `/${role}/campaigns/new` }}
    >
      <PlanLimitBanner
        limit="campaigns"
        usage={planLimit}
        readOnly={readOnly}
        plansUrl={role === "admin" ? "/admin/plans" : null}
      />
      <Card padding="0">
        {empty ? (
          <EmptyState
            heading={t("empty.heading")}
            action={{ content: t("create"), url: `/${role}/campaigns/new` }}
            image=""
          >
            <p>{t("empty.body")}</p>
          </EmptyState>
        ) : (
          <>
            <ListFilters
              list={list}
              placeholder={t("searchPlaceholder")}
              tabLabel={(tab) => (tab === "all" ? t("tabs.all") : t(`states.${tab}`))}
            />
            <IndexTable
              resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
              itemCount={campaigns.length}
              selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
              onSelectionChange={handleSelectionChange}
              promotedBulkActions={[setStatus("active")]}
              bulkActions={[setStatus("draft"), setStatus("private")]}
              loading={list.loading || fetcher.state !== "idle"}
              emptyState={
                <Box padding="800">
                  <Text as="p" variant="headingMd" alignment="center">
                    {t("noMatches")}
                  </Text>
                </Box>
              }
              headings={[
                { title: t("columns.name") },
                { title: t("columns.state") },
                { title: t("columns.commission") },
                { title: t("columns.levels"), alignment: "end" },
                { title: t("columns.affiliates"), alignment: "end" },
                { title: t("Global:fields.dateCreated") },
              ]}
              pagination={list.cursors(after, before)}
            >
              {campaigns.map((c, index) => (
                <IndexTable.Row
                  id={c.id}
                  key={c.id}
                  position={index}
                  selected={selectedResources.includes(c.id)}
                  onClick={() => navigate(`/${role}/campaigns/${c.id}`)}
                >
                  <IndexTable.Cell>
                    <Link url={`/${role}/campaigns/${c.id}`} removeUnderline monochrome dataPrimaryLink>
                      <Text as="span" fontWeight="semibold">
                        {c.name}
                      </Text>
                    </Link>{" "}
                    {c.is_default ? <Badge tone="info">{t("default")}</Badge> : null}
                    {readOnly.ids.includes(c.id) ? <ReadOnlyBadge /> : null}
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={c.status === "active" ? "success" : undefined}>{t(`states.${c.status}`)}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{commission(c)}</IndexTable.Cell>
                  <NumericCell>{c.level_count}</NumericCell>
                  <NumericCell>{c.affiliate_count}</NumericCell>
                  <IndexTable.Cell>{format.date(c.created_at, shop.timezone)}</IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </>
        )}
      </Card>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </ListPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
