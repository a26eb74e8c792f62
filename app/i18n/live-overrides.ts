import type { i18n } from "i18next";
import type { Overrides } from "./overrides";

// The shop's overrides as the browser knows them now. The document brings
// them (script#i18n-data); the root loader's data brings them again after
// every change (Settings > Translations saves revalidate it), so a namespace
// loaded later, or loaded again, gets the current wording.
let current: Overrides = {};

export function currentOverrides(): Overrides {
  return current;
}

/**
 * Takes the overrides the root loader answered. Namespaces already in memory
 * whose overrides changed are fetched again (the shipped file with the new
 * overrides over it), which also brings a reset text back.
 */
export function updateOverrides(i18next: i18n, next: Overrides): void {
  const before = current;
  current = next;
  const changed = new Set(
    [...Object.keys(before), ...Object.keys(next)].filter(
      (ns) => JSON.stringify(before[ns] ?? {}) !== JSON.stringify(next[ns] ?? {}),
    ),
  );
  const loaded = [...changed].filter((ns) => i18next.hasResourceBundle(i18next.language, ns));
  if (loaded.length) void i18next.reloadResources(i18next.language, loaded);
}

/** At start-up: the document's overrides, nothing to fetch again. */
export function initOverrides(overrides: Overrides): void {
  current = overrides;
}
