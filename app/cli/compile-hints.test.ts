import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { COMPILE_HINT, shiftSourceMap, startupScripts, withCompileHint } from "./compile-hints";

const manifest = {
  entry: { module: "/build/entry.client-A.js", imports: ["/build/_shared/react-B.js", "/build/_shared/remix-C.js"] },
  routes: {
    root: {
      id: "root",
      module: "/build/root-D.js",
      imports: ["/build/_shared/polaris-E.js", "/build/_shared/react-B.js"],
    },
    "routes/$role.payouts._index": {
      id: "routes/$role.payouts._index",
      module: "/build/routes/payouts-F.js",
      imports: ["/build/_shared/viz-G.js"],
    },
  },
};

describe("startupScripts", () => {
  it.each([
    [
      "the entry, the root route and their imports, each once, in load order",
      manifest,
      [
        "/build/entry.client-A.js",
        "/build/_shared/react-B.js",
        "/build/_shared/remix-C.js",
        "/build/root-D.js",
        "/build/_shared/polaris-E.js",
      ],
    ],
    [
      "no imports listed",
      { entry: { module: "/build/e.js", imports: [] }, routes: { root: { id: "root", module: "/build/r.js" } } },
      ["/build/e.js", "/build/r.js"],
    ],
  ])("%s", (_name, input, expected) => {
    expect(startupScripts(input)).toEqual(expected);
  });

  it("never names a route's own chunk or what it alone imports", () => {
    const scripts = startupScripts(manifest);
    expect(scripts).not.toContain("/build/routes/payouts-F.js");
    expect(scripts).not.toContain("/build/_shared/viz-G.js");
  });
});

describe("withCompileHint", () => {
  it.each([
    [
      "an ES module",
      'import{a}from"./a.js";export const b=a;',
      `${COMPILE_HINT}\nimport{a}from"./a.js";export const b=a;`,
    ],
    ["a hinted one (a second build step)", `${COMPILE_HINT}\nvar x=1;`, `${COMPILE_HINT}\nvar x=1;`],
  ])("%s", (_name, source, expected) => {
    expect(withCompileHint(source)).toBe(expected);
  });

  const dir = mkdtempSync(path.join(os.tmpdir(), "compile-hint-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("leaves a module that imports and exports as it was (the hint is a comment)", async () => {
    writeFileSync(path.join(dir, "dep.mjs"), withCompileHint("export const n = 41;"));
    writeFileSync(
      path.join(dir, "main.mjs"),
      withCompileHint('import { n } from "./dep.mjs"; export default function answer() { return n + 1; }'),
    );
    const mod = (await import(pathToFileURL(path.join(dir, "main.mjs")).href)) as { default: () => number };
    expect(mod.default()).toBe(42);
  });
});

describe("shiftSourceMap", () => {
  it("maps nothing on the hint's line and everything else one line down", () => {
    const map = { version: 3, sources: ["a.ts"], names: [], mappings: "AAAA;AACA" };
    expect(JSON.parse(shiftSourceMap(JSON.stringify(map)))).toEqual({ ...map, mappings: ";AAAA;AACA" });
  });
});
