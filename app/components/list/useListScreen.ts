import { useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

/** How a list pages: keyset cursors (`after`/`before`) or page numbers (`page`). */
const PAGE_KEYS = ["after", "before", "page"];

interface ListScreenOptions<Tab extends string> {
  /** The URL parameter the search box writes (after a pause in typing). */
  queryParam: string;
  /** The tabs and the URL parameter they write; the first tab is the one without it. */
  tabs?: { values: readonly Tab[]; param?: string };
  /** Parameters that belong to one view (a cursor, a one-off notice): a change of filters drops them. */
  dropOnChange?: string[];
}

export type ListScreen<Tab extends string = string> = ReturnType<typeof useListScreen<Tab>>;

/**
 * The state of a server-paginated list screen, all of it in the URL so a
 * reload or a shared link shows the same list: `update` changes filters (and
 * goes back to the first page, since a cursor belongs to the old filters),
 * the search box writes `queryParam` once typing pauses, the tabs write their
 * parameter, and `loading` is true while this list's own URL loads.
 */
export function useListScreen<Tab extends string = string>({
  queryParam,
  tabs,
  dropOnChange = [],
}: ListScreenOptions<Tab>) {
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const [query, setQuery] = useState(search.get(queryParam) ?? "");
  // What the search box last wrote: typing "a " and pausing writes "a", which
  // must not count as a change still to write.
  const written = useRef(query.trim());

  const update = (changes: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(search);
    for (const key of [...PAGE_KEYS, ...dropOnChange]) next.delete(key);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setSearch(next, { replace: true, preventScrollReset: true });
  };

  useEffect(() => {
    const wanted = query.trim();
    if (wanted === written.current) return;
    const timer = setTimeout(() => {
      written.current = wanted;
      update({ [queryParam]: wanted || null });
    }, 300);
    return () => clearTimeout(timer);
  });

  /** Empties the search box and the given filters at once. */
  const clear = (keys: string[]) => {
    setQuery("");
    written.current = "";
    update(Object.fromEntries([queryParam, ...keys].map((key) => [key, null])));
  };

  const tabParam = tabs?.param ?? "status";
  const tabValues = tabs?.values ?? [];
  const current = search.get(tabParam);
  const tab: Tab | undefined = tabValues.find((value) => value === current) ?? tabValues[0];

  return {
    search,
    update,
    query,
    setQuery,
    clear,
    tab,
    tabIndex: Math.max(
      0,
      tabValues.findIndex((value) => value === tab),
    ),
    selectTab: (index: number) => update({ [tabParam]: index === 0 ? null : tabValues[index] }),
    tabValues,
    loading: navigation.state === "loading" && navigation.location.pathname === location.pathname,
    /** IndexTable pagination for keyset cursors. */
    cursors: (after: string | null, before: string | null) => ({
      hasNext: Boolean(after),
      hasPrevious: Boolean(before),
      onNext: () => after && update({ after }),
      onPrevious: () => before && update({ before }),
    }),
    /** IndexTable pagination for numbered pages (1-based). */
    pages: (page: number, pageCount: number, label?: string) => ({
      hasPrevious: page > 1,
      hasNext: page < pageCount,
      onPrevious: () => update({ page: String(page - 1) }),
      onNext: () => update({ page: String(page + 1) }),
      label,
    }),
  };
}
