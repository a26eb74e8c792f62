// The JavaScript budgets of issue 33, read from the production build that
// `npm test` makes before this project runs: the first admin page a merchant
// opens loads at most 350 KB (gzip) of JavaScript, counting what it fetches
// through import() (a chart loaded after hydration is still loaded), and no screen adds more
// than 60 KB on a client-side navigation. The vitals bench measures what the
// bytes cost in Chromium; this holds the bytes themselves on every change.
import { describe, expect, it } from "vitest";
import { firstLoadFiles, readBuildManifest, routeChain, routeOnlyFiles, totalBytes } from "../support/build-manifest";

const FIRST_LOAD_BUDGET = 350 * 1024;
const ROUTE_BUDGET = 60 * 1024;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

describe("JavaScript budgets of the production build", () => {
  const manifest = readBuildManifest();
  const screens = Object.values(manifest.routes).filter((r) => r.hasDefaultExport !== false && r.id !== "root");
  const admin = screens.filter((r) => routeChain(manifest, r.id).some((p) => p.id === "routes/$role"));

  it("finds the admin screens in the manifest", () => {
    // The budget below means nothing if the layout route were renamed.
    expect(admin.map((r) => r.id)).toContain("routes/$role.dashboard");
    expect(admin.length).toBeGreaterThan(20);
  });

  it("loads at most 350 KB of JavaScript on the first admin page, whichever it is", () => {
    const over = admin
      .map((r) => ({ id: r.id, bytes: totalBytes(firstLoadFiles(manifest, r.id)) }))
      .filter((r) => r.bytes > FIRST_LOAD_BUDGET)
      .map((r) => `${r.id}: ${kb(r.bytes)}`);
    expect(over).toEqual([]);
  });

  it("adds at most 60 KB of JavaScript per screen on a client-side navigation", () => {
    const over = screens
      .map((r) => ({ id: r.id, bytes: totalBytes(routeOnlyFiles(manifest, r.id)) }))
      .filter((r) => r.bytes > ROUTE_BUDGET)
      .map((r) => `${r.id}: ${kb(r.bytes)}`);
    expect(over).toEqual([]);
  });
});
