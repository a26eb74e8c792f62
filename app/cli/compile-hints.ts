// Chromium's per-file compile hint (ADR 070): a script that starts with
// `//# allFunctionsCalledOnLoad` has all its functions compiled eagerly, on
// the background thread that streams it, instead of one by one on the main
// thread the first time each runs. That first run came at the worst moment:
// the first click on Pay compiled Polaris's Modal, Dialog, Select and
// TrapFocus while the person waited for the dialog. Only the scripts every
// admin page loads at startup (the client entry, the root route and their
// imports) get it; a route's own chunk and what loads later (charts) stay lazy.

import type { AssetManifest } from "./asset-manifest";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/** The URLs of the scripts every page that hydrates loads first, each once. */
export function startupScripts(manifest: AssetManifest): string[] {
  const root = manifest.routes.root!;
  return [...new Set([manifest.entry.module, ...manifest.entry.imports, root.module, ...(root.imports ?? [])])];
}

/** The script with the hint on its first line (unchanged if it has it). */
export function withCompileHint(source: string): string {
  return source.startsWith(COMPILE_HINT) ? source : `${COMPILE_HINT}\n${source}`;
}

/** A source map for the hinted script: one more line, with nothing mapped on it. */
export function shiftSourceMap(map: string): string {
  const parsed = JSON.parse(map) as { mappings?: string };
  return JSON.stringify({ ...parsed, mappings: `;${parsed.mappings ?? ""}` });
}
