import { useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";

const PAGE_KEYS = ["after", "before"];

/**
 * A server-paginated list's state in its URL: `update` changes filters (and
 * goes back to the first page, since a cursor belongs to the old filters),
 * and the search box writes `queryParam` after a pause in typing.
 */
export function useListSearch(queryParam: string, dropOnChange: string[] = []) {
  const [search, setSearch] = useSearchParams();
  const [query, setQuery] = useState(search.get(queryParam) ?? "");

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const key of [...PAGE_KEYS, ...dropOnChange]) next.delete(key);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setSearch(next, { replace: true });
  };

  useEffect(() => {
    if (query === (search.get(queryParam) ?? "")) return;
    const timer = setTimeout(() => update({ [queryParam]: query || null }), 300);
    return () => clearTimeout(timer);
  });

  /** IndexTable pagination props for the page's keyset cursors. */
  const pagination = (after: string | null, before: string | null) => ({
    hasNext: Boolean(after),
    hasPrevious: Boolean(before),
    onNext: () => after && update({ after }),
    onPrevious: () => before && update({ before }),
  });

  return { search, update, query, setQuery, pagination };
}
