import { IndexFilters, useSetIndexFiltersMode, type IndexFiltersProps } from "@shopify/polaris";
import { useSameWhileEqual } from "~/lib/use-same-while-equal";
import type { ListScreen } from "./useListScreen";

type Filters = Pick<IndexFiltersProps, "filters" | "appliedFilters">;

/**
 * The bar above a list: tabs, the search box, filters and sort, bound to the
 * list's URL state (`useListScreen`). Tabs are fixed views: merchants cannot
 * save their own.
 */
export function ListFilters<Tab extends string>({
  list,
  placeholder,
  tabLabel,
  tabId = (tab) => tab,
  sort,
  filters = [],
  appliedFilters = [],
  clearKeys = [],
}: {
  list: ListScreen<Tab>;
  placeholder: string;
  tabLabel: (tab: Tab) => string;
  /** The tab's element id (ids are page-wide: a page with two lists prefixes them). */
  tabId?: (tab: Tab) => string;
  sort?: { options: IndexFiltersProps["sortOptions"]; selected: string; param?: string; byDefault?: string };
  /** Filters beyond search and tabs; "Clear all" empties the search and `clearKeys`. */
  clearKeys?: string[];
} & Partial<Filters>) {
  const { mode, setMode } = useSetIndexFiltersMode();
  const sortParam = sort?.param ?? "sort";
  // The same array while the tabs read the same: Polaris's Tabs recomputes
  // which tabs fit (a state update, so a second render) whenever it changes,
  // and this bar re-renders on every keystroke in the search box.
  const tabs = useSameWhileEqual(
    list.tabValues.map((tab, index) => ({ id: tabId(tab), index, content: tabLabel(tab), isLocked: true })),
  );
  return (
    <IndexFilters
      {...(sort
        ? {
            sortOptions: sort.options,
            sortSelected: [sort.selected],
            onSort: ([value]: string[]) => list.update({ [sortParam]: value === sort.byDefault ? null : value }),
          }
        : {})}
      queryValue={list.query}
      queryPlaceholder={placeholder}
      onQueryChange={list.setQuery}
      onQueryClear={() => list.setQuery("")}
      tabs={tabs}
      selected={list.tabIndex}
      onSelect={list.selectTab}
      filters={filters}
      appliedFilters={appliedFilters}
      onClearAll={() => list.clear(clearKeys)}
      mode={mode}
      setMode={setMode}
      canCreateNewView={false}
      cancelAction={{ onAction: () => list.setQuery("") }}
      loading={list.loading}
    />
  );
}

/** Sort choices for `ListFilters`: each value is "column direction", labelled by `label("column")` and `label("column_direction")`. */
export function sortOptions(
  values: readonly string[],
  label: (key: string) => string,
): IndexFiltersProps["sortOptions"] {
  return values.map((value) => {
    const [column, direction] = value.split(" ") as [string, "asc" | "desc"];
    return {
      label: label(column),
      value: `${column} ${direction}` as const,
      directionLabel: label(`${column}_${direction}`),
    };
  });
}
