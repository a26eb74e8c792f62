// What the browser downloads, read from the production build (public/build):
// Remix's manifest names each route's module and the shared chunks it
// imports; the chunks import one another, so the closure of a page's modules
// is the JavaScript its first load fetches. Sizes are gzip level 9 bytes,
// about what a CDN serves.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { readAssetManifest, type AssetManifest, type ManifestRoute } from "../../app/cli/asset-manifest";

const PUBLIC = path.resolve(__dirname, "../../public");

export type { AssetManifest as BuildManifest } from "../../app/cli/asset-manifest";

export function readBuildManifest(): AssetManifest {
  return readAssetManifest(path.join(PUBLIC, "build"));
}

const sizes = new Map<string, number>();
const importsOf = new Map<string, { static: string[]; dynamic: string[] }>();

/** Compressed bytes of one built file (its URL path, e.g. /build/root-XYZ.js). */
export function gzipBytes(url: string): number {
  let n = sizes.get(url);
  if (n === undefined) {
    n = gzipSync(readFileSync(path.join(PUBLIC, url)), { level: 9 }).length;
    sizes.set(url, n);
  }
  return n;
}

function importsIn(url: string): { static: string[]; dynamic: string[] } {
  let list = importsOf.get(url);
  if (!list) {
    const source = readFileSync(path.join(PUBLIC, url), "utf8");
    // esbuild writes static imports as `from"/build/…"` or `import"/build/…"`,
    // and dynamic ones as `import("/build/…")`.
    list = {
      static: [...source.matchAll(/(?:from|import)\s*"(\/build\/[^"]+\.js)"/g)].map((m) => m[1]!),
      dynamic: [...source.matchAll(/import\(\s*"(\/build\/[^"]+\.js)"\s*\)/g)].map((m) => m[1]!),
    };
    importsOf.set(url, list);
  }
  return list;
}

/**
 * Every file the given modules load at once, themselves included; with
 * `dynamic`, also what they may load later through import() (a chart or a
 * polyfill fetched right after hydration counts against a first load too).
 */
export function closure(modules: readonly string[], { dynamic = false } = {}): Set<string> {
  const seen = new Set<string>();
  const stack = [...modules];
  while (stack.length) {
    const url = stack.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const next = importsIn(url);
    stack.push(...next.static, ...(dynamic ? next.dynamic : []));
  }
  return seen;
}

/** The route and its parents, root first. */
export function routeChain(manifest: AssetManifest, id: string): ManifestRoute[] {
  const chain: ManifestRoute[] = [];
  for (
    let r: ManifestRoute | undefined = manifest.routes[id];
    r;
    r = r.parentId ? manifest.routes[r.parentId] : undefined
  )
    chain.unshift(r);
  return chain;
}

const modulesOf = (routes: readonly ManifestRoute[]) => routes.flatMap((r) => [r.module, ...(r.imports ?? [])]);

export const totalBytes = (files: Iterable<string>) => [...files].reduce((n, f) => n + gzipBytes(f), 0);

/**
 * Compressed JavaScript of a page opened first (entry, every route of its
 * chain and what they import, at once or through import()).
 */
export function firstLoadFiles(manifest: AssetManifest, id: string): Set<string> {
  return closure([manifest.entry.module, ...manifest.entry.imports, ...modulesOf(routeChain(manifest, id))], {
    dynamic: true,
  });
}

/** What a client-side navigation to the route adds to what its parents already loaded. */
export function routeOnlyFiles(manifest: AssetManifest, id: string): Set<string> {
  const chain = routeChain(manifest, id);
  const parents = closure([manifest.entry.module, ...manifest.entry.imports, ...modulesOf(chain.slice(0, -1))]);
  return new Set([...closure(modulesOf(chain.slice(-1)))].filter((f) => !parents.has(f)));
}
