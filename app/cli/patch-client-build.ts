// Runs after `remix build` (npm run build): shares esbuild's CommonJS
// namespace objects in the browser build (esm-interop-patch.ts, ADR 068).
// Exactly one chunk holds the helper (esbuild puts its runtime helpers in one
// shared chunk); finding none or several means a compiler this does not
// know, and the build stops saying so rather than ship an unmeasured change.
// Then it marks the scripts every page loads at startup for eager
// compilation (compile-hints.ts, ADR 070).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readAssetManifest } from "./asset-manifest";
import { shiftSourceMap, startupScripts, withCompileHint } from "./compile-hints";
import { SHARED_MARK, shareEsmNamespaces } from "./esm-interop-patch";

const buildDir = path.resolve(__dirname, "../../public/build");

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return scripts(full);
    return entry.name.endsWith(".js") ? [full] : [];
  });
}

let helpers = 0;
let already = 0;
for (const file of scripts(buildDir)) {
  const source = readFileSync(file, "utf8");
  if (source.includes(SHARED_MARK)) {
    already++;
    continue;
  }
  const result = shareEsmNamespaces(source);
  if (result.patched === 0) continue;
  helpers += result.patched;
  writeFileSync(file, result.source);
}
if (helpers + already !== 1) {
  throw new Error(
    `patch-client-build: expected esbuild's __toESM helper once in public/build, found it ${helpers + already} times; ` +
      "a new Remix compiler or esbuild? See ADR 068.",
  );
}

for (const url of startupScripts(readAssetManifest(buildDir))) {
  const file = path.join(buildDir, url.replace(/^\/build\//, ""));
  const source = readFileSync(file, "utf8");
  const hinted = withCompileHint(source);
  if (hinted === source) continue;
  writeFileSync(file, hinted);
  // A build made with --sourcemap: its map follows the script one line down.
  if (existsSync(`${file}.map`)) writeFileSync(`${file}.map`, shiftSourceMap(readFileSync(`${file}.map`, "utf8")));
}
