import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { hasUnsharedToEsm, shareEsmNamespaces } from "./esm-interop-patch";

// The esbuild that Remix's compiler runs (not the project's own copy): the
// patch must match what it writes.
const requireFromRemix = createRequire(require.resolve("@remix-run/dev"));
const esbuild = requireFromRemix("esbuild") as typeof import("esbuild");

const dir = mkdtempSync(path.join(os.tmpdir(), "esm-interop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  "counter.cjs": "exports.n = 1; exports.bump = () => { exports.n++; };",
  "greet.cjs": 'module.exports = function greet() { return "hi"; }; module.exports.extra = 2;',
  "a.mjs": 'import * as counter from "./counter.cjs"; export const viaA = counter;',
  "b.js": 'import { n, bump } from "./counter.cjs"; export const viaB = () => ({ n, bump });',
  "c.js": 'import * as counter from "./counter.cjs"; export const viaC = counter;',
  "d.js": 'import * as counter from "./counter.cjs"; export const viaD = counter;',
  "entry.js": [
    'export { viaA } from "./a.mjs";',
    'export { viaB } from "./b.js";',
    'export { viaC } from "./c.js";',
    'export { viaD } from "./d.js";',
    'import greet, { extra } from "./greet.cjs";',
    "export const greeting = { greet, extra };",
  ].join("\n"),
};
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);

/** The fixture bundled as Remix bundles the browser build (minified ESM), patched or not. */
async function bundle(patch: boolean) {
  const built = await esbuild.build({
    entryPoints: [path.join(dir, "entry.js")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
  });
  const original = built.outputFiles[0]!.text;
  const { source, patched } = patch ? shareEsmNamespaces(original) : { source: original, patched: 0 };
  const file = path.join(dir, `out-${patch ? "patched" : "original"}.mjs`);
  writeFileSync(file, source);
  return { original, source, patched, module: await import(pathToFileURL(file).href) };
}

describe("sharing esbuild's CommonJS namespace objects", () => {
  it("finds the helper exactly once in what Remix's esbuild writes", async () => {
    const { original, source, patched } = await bundle(true);
    expect(hasUnsharedToEsm(original)).toBe(true);
    expect(patched).toBe(1);
    expect(hasUnsharedToEsm(source)).toBe(false);
    // Patching twice changes nothing.
    expect(shareEsmNamespaces(source)).toEqual({ source, patched: 0 });
  });

  it("gives every importer of a module one object, where esbuild made one each", async () => {
    const before = (await bundle(false)).module;
    const after = (await bundle(true)).module;
    expect(before.viaC).not.toBe(before.viaD);
    expect(after.viaC).toBe(after.viaD);
    // An .mjs importer reads the module in Node's mode (no __esModule
    // unwrapping): its object is kept apart.
    expect(after.viaA).not.toBe(after.viaC);
  });

  it.each([
    ["original", false],
    ["patched", true],
  ])("reads the same exports, live, as the %s helper", async (_, patch) => {
    const { module } = await bundle(patch);
    // A CommonJS module whose export is a function: default and properties.
    expect(module.greeting.greet()).toBe("hi");
    expect(module.greeting.extra).toBe(2);
    expect(module.viaA.n).toBe(1);
    expect(module.viaB().n).toBe(1);
    // The namespace reads module.exports as it is now (getters, not copies).
    module.viaA.bump();
    expect(module.viaA.n).toBe(2);
    expect(module.viaC.n).toBe(2);
    expect(module.viaB().n).toBe(2);
    expect(Object.keys(module.viaA).sort()).toEqual(["bump", "default", "n"]);
  });

  it("leaves a chunk without the helper as it was", () => {
    const chunk = 'import{a as r}from"./chunk-X.js";var o=r();export{o as default};';
    expect(shareEsmNamespaces(chunk)).toEqual({ source: chunk, patched: 0 });
  });
});
