import { useFetcher, useParams } from "@remix-run/react";
import {
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
import { useFormat } from "~/i18n/format";
import { AFFILIATE_STATUSES } from "~/models/affiliates/affiliate-statuses";
import { AFFILIATE_SORTS, type StatusAction } from "~/models/affiliates/admin-schemas";
import { EmptyMessage } from "../EmptyMessage";
import { ListFilters, sortOptions } from "../list/ListFilters";
import { useFetcherResult } from "../list/useFetcherResult";
import { useListScreen } from "../list/useListScreen";
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
  /** The shop's affiliate tags (ADR 057), for the tag filter. */
  tags?: string[];
  query: { q?: string; status?: string; campaign?: string; tag?: string; sort: string; page: number };
  /** Rows over the plan's limit (read-only after a downgrade). */
  readOnly?: { ids: string[] };
}

const TABS = ["all", ...AFFILIATE_STATUSES] as const;

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
  const list = useListScreen({ queryParam: "q", tabs: { values: TABS } });
  const fetcher = useFetcher<StatusResult>();
  const [toast, setToast] = useState<{ content: string; error?: boolean } | null>(null);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(
    data.rows,
  );

  useFetcherResult(fetcher, (result) => {
    if (result.error) setToast({ content: result.error.message, error: true });
    else {
      const { changed = 0, skipped = 0, action = "approve" } = result;
      setToast({ content: t(`Affiliates:bulk.done.${action}`, { count: changed, skipped }) });
      clearSelection();
    }
  });

  // Stable between renders: IndexTable re-measures its headings whenever
  // their array changes, and typing in the search box re-renders this table.
  const resourceName = useMemo(
    () => ({ singular: t("Affiliates:list.singular"), plural: t("Affiliates:list.plural") }),
    [t],
  );
  const headings = useMemo(
    (): IndexTableProps["headings"] => [
      { title: t("Global:fields.name") },
      { title: t("Global:fields.email") },
      { title: t("Global:fields.status") },
      { title: t("Affiliates:fields.campaign") },
      { title: t("Affiliates:fields.referralCode") },
      { title: t("Global:fields.dateCreated") },
    ],
    [t],
  );

  function bulk(action: StatusAction) {
    const ids = allResourcesSelected ? data.rows.map((row) => row.id) : selectedResources;
    fetcher.submit({ intent: "status", action, ids: ids.join(",") }, { method: "post" });
  }

  const campaign = data.query.campaign;
  const campaignName = data.campaigns.find((c) => c.id === campaign)?.name ?? campaign;
  const tag = data.query.tag;
  const tags = data.tags ?? [];
  const filtered = Boolean(data.query.q || data.query.status || campaign || tag);

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
      <ListFilters
        list={list}
        placeholder={t("Affiliates:list.search")}
        tabLabel={(status) => (status === "all" ? t("Affiliates:list.all") : t(`Global:status.${status}`))}
        sort={{
          options: sortOptions(AFFILIATE_SORTS, (key) => t(`Affiliates:sort.${key}`)),
          selected: data.query.sort,
        }}
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
                onChange={(value) => list.update({ campaign: value[0] })}
              />
            ),
          },
          {
            key: "tag",
            label: t("Affiliates:tags.filter"),
            shortcut: tags.length > 0,
            filter: (
              <ChoiceList
                title={t("Affiliates:tags.filter")}
                titleHidden
                choices={(tag && !tags.includes(tag) ? [tag, ...tags] : tags).map((x) => ({ label: x, value: x }))}
                selected={tag ? [tag] : []}
                onChange={(value) => list.update({ tag: value[0] })}
              />
            ),
          },
        ]}
        appliedFilters={[
          ...(campaign
            ? [
                {
                  key: "campaign",
                  label: `${t("Affiliates:fields.campaign")}: ${campaignName}`,
                  onRemove: () => list.update({ campaign: null }),
                },
              ]
            : []),
          ...(tag
            ? [
                {
                  key: "tag",
                  label: `${t("Affiliates:tags.filter")}: ${tag}`,
                  onRemove: () => list.update({ tag: null }),
                },
              ]
            : []),
        ]}
        clearKeys={["campaign", "tag"]}
      />
      <IndexTable
        resourceName={resourceName}
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
        headings={headings}
        pagination={list.pages(
          data.page,
          data.pageCount,
          t("Affiliates:list.pageLabel", { page: data.page, pages: data.pageCount, total: data.total }),
        )}
      >
        {data.rows.map((row, index) => (
          <AffiliateRow
            key={row.id}
            row={row}
            index={index}
            selected={selectedResources.includes(row.id)}
            readOnly={Boolean(data.readOnly?.ids.includes(row.id))}
            role={role}
            timeZone={timeZone}
            format={format}
          />
        ))}
      </IndexTable>
      {toast ? <AppToast content={toast.content} error={toast.error} onDismiss={() => setToast(null)} /> : null}
    </Card>
  );
}

// One row, memoised on its data and its selection: typing in the search box
// or a tab re-renders the table's frame, not every row (INP, issue 33).
const AffiliateRow = memo(function AffiliateRow({
  row,
  index,
  selected,
  readOnly,
  role,
  timeZone,
  format,
}: {
  row: Row;
  index: number;
  selected: boolean;
  readOnly: boolean;
  role: string | undefined;
  timeZone: string;
  format: ReturnType<typeof useFormat>;
}) {
  return (
    <IndexTable.Row id={row.id} position={index} selected={selected}>
      <IndexTable.Cell>
        <Link url={`/${role}/affiliates/${row.id}`} monochrome removeUnderline dataPrimaryLink>
          <Text as="span" fontWeight="semibold">
            {`${row.firstName} ${row.lastName}`.trim()}
          </Text>
        </Link>
      </IndexTable.Cell>
      <IndexTable.Cell>{row.email}</IndexTable.Cell>
      <IndexTable.Cell>
        <AffiliateStatusBadge status={row.status} /> {readOnly ? <ReadOnlyBadge /> : null}
      </IndexTable.Cell>
      <IndexTable.Cell>{row.campaign.name}</IndexTable.Cell>
      <IndexTable.Cell>{row.referralCode}</IndexTable.Cell>
      <IndexTable.Cell>{format.date(row.createdAt, timeZone)}</IndexTable.Cell>
    </IndexTable.Row>
  );
});
