// Remix's asset manifest (public/build/manifest-<version>.js): which module
// each route is and the shared chunks it imports. Read by the build's last
// step (patch-client-build.ts) and by the tests and benches that reason about
// what a page loads; `remix build` empties public/build, so there is one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
  hasDefaultExport?: boolean;
}

export interface AssetManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

/** The manifest from its file's text (`window.__remixManifest={...};`). */
export function parseAssetManifest(text: string): AssetManifest {
  const json = /^window\.__remixManifest=(\{.*\});?\s*$/s.exec(text)?.[1];
  if (!json) throw new Error("not a Remix asset manifest (window.__remixManifest=...)");
  const manifest = JSON.parse(json) as Partial<AssetManifest>;
  if (!manifest.entry?.module || !manifest.routes?.root?.module)
    throw new Error("the asset manifest names no client entry or root route");
  return manifest as AssetManifest;
}

/** The manifest of the build in `buildDir` (public/build): exactly one, or an error saying what was found. */
export function readAssetManifest(buildDir: string): AssetManifest {
  const files = readdirSync(buildDir).filter((name) => /^manifest-.*\.js$/.test(name));
  if (files.length !== 1)
    throw new Error(
      `expected one manifest-*.js in ${buildDir}, found ${files.length}` +
        (files.length ? "" : ": run `npm run build` first"),
    );
  return parseAssetManifest(readFileSync(path.join(buildDir, files[0]!), "utf8"));
}
