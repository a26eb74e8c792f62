import { useEffect, useRef } from "react";

/**
 * Calls `onResult` once for each answer a fetcher brings back, as soon as
 * the answer is there (while the page's data reloads behind it, so a dialog
 * closes at once): a toast, clearing a selection. The latest `onResult` is used,
 * so it may read the render's state without being a dependency; a
 * revalidation that keeps the same answer does not call it again.
 */
export function useFetcherResult<T>(fetcher: { state: string; data: T | undefined }, onResult: (data: T) => void) {
  const latest = useRef(onResult);
  useEffect(() => {
    latest.current = onResult;
  });
  const handled = useRef<T | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state === "submitting" || fetcher.data === undefined || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    latest.current(fetcher.data);
  }, [fetcher.state, fetcher.data]);
}
