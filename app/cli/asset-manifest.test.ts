import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAssetManifest, readAssetManifest } from "./asset-manifest";

const manifest = {
  entry: { module: "/build/entry.client-A.js", imports: ["/build/_shared/react-B.js"] },
  routes: { root: { id: "root", module: "/build/root-D.js", imports: ["/build/_shared/polaris-E.js"] } },
};
const text = `window.__remixManifest=${JSON.stringify(manifest)};`;

describe("parseAssetManifest", () => {
  it("reads the manifest Remix writes", () => {
    expect(parseAssetManifest(text)).toEqual(manifest);
  });

  it.each([
    ["another file", "export const x = 1;", /not a Remix asset manifest/],
    ["no root route", `window.__remixManifest=${JSON.stringify({ entry: { module: "/e.js" }, routes: {} })};`, /root/],
  ])("refuses %s", (_name, source, message) => {
    expect(() => parseAssetManifest(source)).toThrow(message);
  });
});

describe("readAssetManifest", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "asset-manifest-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the one manifest of a build, and refuses none or two", () => {
    expect(() => readAssetManifest(dir)).toThrow(/found 0: run `npm run build` first/);
    writeFileSync(path.join(dir, "manifest-AAAA1111.js"), text);
    expect(readAssetManifest(dir)).toEqual(manifest);
    writeFileSync(path.join(dir, "manifest-BBBB2222.js"), text);
    expect(() => readAssetManifest(dir)).toThrow(/found 2/);
  });
});
