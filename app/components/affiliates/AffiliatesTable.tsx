import { useFetcher, useNavigation, useParams, useSearchParams } from "@remix-run/react";
import {
  Card,
  ChoiceList,
  IndexFilters,
  IndexTable,
  Link,
  Text,
  useIndexResourceState,
  useSetIndexFiltersMode,
  type IndexFiltersProps,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { AFFILIATE_STATUSES } from "~/models/affiliates/affiliate-statuses";
import { AFFILIATE_SORTS, type StatusAction } from "~/models/affiliates/admin-schemas";
import { EmptyMessage } from "../EmptyMessage";
import { ReadOnlyBadge } from "../PlanLimitBanner";
import { AffiliateStatusBadge } from "./StatusBadge";

type Row = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  referralCode: string;
  createdAt: string;
  campaign: { name: string };
};

export interface AffiliatesTableData {
  rows: Row[];
  total: number;
  page: number;
  pageCount: number;
  campaigns: { id: string; name: string }[];
  query: { q?: string; status?: string; campaign?: string; sort: string; page: number };
  /** Rows over the plan's limit (read-only after a downgrade). */
  readOnly?: { ids: string[] };
}

const TABS = [undefined, ...AFFILIATE_STATUSES];

interface StatusResult {
  intent: string;
  action?: StatusAction;
  changed?: number;
  skipped?: number;
  error?: { message: string };
}

/** The affiliate list: status tabs, search, campaign filter, sort, bulk actions and server-side pages. */
export function AffiliatesTable({
  data,
  timeZone,
  onAdd,
  onImport,
}: {
  data: AffiliatesTableData;
  // The shop's: dates are shown as the merchant reads them.
  timeZone: string;
  onAdd: () => void;
  onImport: () => void;
}) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const format = useFormat();
  const { role } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const fetcher = useFetcher<StatusResult>();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [queryText, setQueryText] = useState(data.query.q ?? "");
  const [toast, setToast] = useState<{ content: string; error?: boolean } | null>(null);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(
    data.rows,
  );

  function go(changes: Record<string, string | undefined>) {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!("page" in changes)) next.delete("page");
    setSearchParams(next, { preventScrollReset: true });
  }

  // Search as the merchant types, once they pause.
  const lastQuery = useRef(data.query.q ?? "");
  useEffect(() => {
    if (queryText === lastQuery.current) return;
    const timer = setTimeout(() => {
      lastQuery.current = queryText;
      go({ q: queryText.trim() || undefined });
    }, 350);
    return () => clearTimeout(timer);
  });

  const done = useRef<StatusResult | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || done.current === fetcher.data) return;
    done.current = fetcher.data;
    if (fetcher.data.error) setToast({ content: fetcher.data.error.message, error: true });
    else {
      const { changed = 0, skipped = 0, action = "approve" } = fetcher.data;
      setToast({ content: t(`Affiliates:bulk.done.${action}`, { count: changed, skipped }) });
      clearSelection();
    }
  }, [fetcher.state, fetcher.data, clearSelection, t]);

  function bulk(action: StatusAction) {
    const ids = allResourcesSelected ? data.rows.map((row) => row.id) : selectedResources;
    fetcher.submit({ intent: "status", action, ids: ids.join(",") }, { method: "post" });
  }

  const sortOptions: IndexFiltersProps["sortOptions"] = AFFILIATE_SORTS.map((value) => {
    const [column, direction] = value.split(" ") as [string, "asc" | "desc"];
    return {
      label: t(`Affiliates:sort.${column}`),
      value,
      directionLabel: t(`Affiliates:sort.${column}_${direction}`),
    };
  });
  const tabs = TABS.map((status) => ({
    id: status ?? "all",
    content: status ? t(`Global:status.${status}`) : t("Affiliates:list.all"),
    isLocked: true,
  }));
  const campaign = data.query.campaign;
  const campaignName = data.campaigns.find((c) => c.id === campaign)?.name ?? campaign;
  const filtered = Boolean(data.query.q || data.query.status || campaign);

  const emptyState = filtered ? (
    <EmptyMessage heading={t("Affiliates:list.noMatch")} body={t("Affiliates:list.noMatchBody")} />
  ) : (
    <EmptyMessage
      heading={t("Affiliates:list.empty")}
      body={t("Affiliates:list.emptyBody")}
      action={{ content: t("Affiliates:add.button"), onAction: onAdd }}
      secondaryAction={{ content: t("Affiliates:import.button"), onAction: onImport }}
    />
  );

  return (
    <Card padding="0">
      <IndexFilters
        sortOptions={sortOptions}
        sortSelected={[data.query.sort]}
        onSort={(value) => go({ sort: value[0] })}
        queryValue={queryText}
        queryPlaceholder={t("Affiliates:list.search")}
        onQueryChange={setQueryText}
        onQueryClear={() => setQueryText("")}
        tabs={tabs}
        selected={Math.max(0, TABS.indexOf(data.query.status as (typeof TABS)[number]))}
        onSelect={(index) => go({ status: TABS[index] })}
        canCreateNewView={false}
        filters={[
          {
            key: "campaign",
            label: t("Affiliates:fields.campaign"),
            shortcut: true,
            filter: (
              <ChoiceList
                title={t("Affiliates:fields.campaign")}
                titleHidden
                choices={data.campaigns.map((c) => ({ label: c.name, value: c.id }))}
                selected={campaign ? [campaign] : []}
                onChange={(value) => go({ campaign: value[0] })}
              />
            ),
          },
        ]}
        appliedFilters={
          campaign
            ? [
                {
                  key: "campaign",
                  label: `${t("Affiliates:fields.campaign")}: ${campaignName}`,
                  onRemove: () => go({ campaign: undefined }),
                },
              ]
            : []
        }
        onClearAll={() => go({ campaign: undefined })}
        mode={mode}
        setMode={setMode}
        loading={navigation.state === "loading" && navigation.location.pathname === `/${role}/affiliates`}
      />
      <IndexTable
        resourceName={{ singular: t("Affiliates:list.singular"), plural: t("Affiliates:list.plural") }}
        itemCount={data.rows.length}
        selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
        onSelectionChange={handleSelectionChange}
        loading={fetcher.state !== "idle"}
        emptyState={emptyState}
        promotedBulkActions={[
          { content: t("Affiliates:actions.approve"), onAction: () => bulk("approve") },
          { content: t("Affiliates:actions.deny"), onAction: () => bulk("deny") },
          { content: t("Affiliates:actions.deactivate"), onAction: () => bulk("deactivate") },
        ]}
        headings={[
          { title: t("Global:fields.name") },
          { title: t("Global:fields.email") },
          { title: t("Global:fields.status") },
          { title: t("Affiliates:fields.campaign") },
          { title: t("Affiliates:fields.referralCode") },
          { title: t("Global:fields.dateCreated") },
        ]}
        pagination={{
          hasPrevious: data.page > 1,
          hasNext: data.page < data.pageCount,
          onPrevious: () => go({ page: String(data.page - 1) }),
          onNext: () => go({ page: String(data.page + 1) }),
          label: t("Affiliates:list.pageLabel", { page: data.page, pages: data.pageCount, total: data.total }),
        }}
      >
        {data.rows.map((row, index) => (
          <IndexTable.Row id={row.id} key={row.id} position={index} selected={selectedResources.includes(row.id)}>
            <IndexTable.Cell>
              <Link url={`/${role}/affiliates/${row.id}`} monochrome removeUnderline dataPrimaryLink>
                <Text as="span" fontWeight="semibold">
                  {`${row.firstName} ${row.lastName}`.trim()}
                </Text>
              </Link>
            </IndexTable.Cell>
            <IndexTable.Cell>{row.email}</IndexTable.Cell>
            <IndexTable.Cell>
              <AffiliateStatusBadge status={row.status} />{" "}
              {data.readOnly?.ids.includes(row.id) ? <ReadOnlyBadge /> : null}
            </IndexTable.Cell>
            <IndexTable.Cell>{row.campaign.name}</IndexTable.Cell>
            <IndexTable.Cell>{row.referralCode}</IndexTable.Cell>
            <IndexTable.Cell>{format.date(row.createdAt, timeZone)}</IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </IndexTable>
      {toast ? <AppToast content={toast.content} error={toast.error} onDismiss={() => setToast(null)} /> : null}
    </Card>
  );
}
