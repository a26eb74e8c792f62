// Chromium's per-file compile hint (ADR 070): a script that starts with
// `//# allFunctionsCalledOnLoad` has all its functions compiled eagerly, on
// the background thread that streams it, instead of one by one on the main
// thread the first time each runs. That first run came at the worst moment:
// the first click on Pay compiled Polaris's Modal, Dialog, Select and
// TrapFocus while the person waited for the dialog. Only the scripts every
// admin page loads at startup (the client entry, the root route and their
// imports) get it; a route's own chunk and what loads later (charts) stay lazy.

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/** The parts of Remix's asset manifest (public/build/manifest-*.js) read here. */
export interface AssetManifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}

/** The manifest from its file's text (`window.__remixManifest={...};`). */
export function readAssetManifest(text: string): AssetManifest {
  const json = /^window\.__remixManifest=(\{.*\});?\s*$/s.exec(text)?.[1];
  if (!json) throw new Error("not a Remix asset manifest (window.__remixManifest=...)");
  const manifest = JSON.parse(json) as Partial<AssetManifest>;
  if (!manifest.entry?.module || !manifest.routes?.root?.module)
    throw new Error("the asset manifest names no client entry or root route");
  return manifest as AssetManifest;
}

/** The URLs of the scripts every page that hydrates loads first, each once. */
export function startupScripts(manifest: AssetManifest): string[] {
  const root = manifest.routes.root!;
  return [...new Set([manifest.entry.module, ...(manifest.entry.imports ?? []), root.module, ...(root.imports ?? [])])];
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
