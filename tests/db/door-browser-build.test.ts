import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The browser build of each route and of the root (public/build, from npm run build)
// must not call a door: the door modules are .server modules, empty in the
// browser, so a surviving `merchantRoute(...)` call throws when the route
// module loads and the page never hydrates (a client-side navigation to it
// hangs). The classic compiler drops loaders and actions only by
// tree-shaking, so routes mark the call: `export const loader = /* @__PURE__ */ merchantRoute(...)`.
const BUILD = path.resolve(__dirname, "../../public/build");
const DOOR_CALL = /\b(merchantRoute|affiliateRoute|publicRoute|apiRoute|apiNotFound|areaPage|recordPage)\)\(/;

describe("browser build of the routes", () => {
  it("calls no door (every door call in a route is marked pure)", () => {
    const files = [
      ...readdirSync(path.join(BUILD, "routes")).map((f) => `routes/${f}`),
      ...readdirSync(BUILD).filter((f) => f.startsWith("root-")),
    ].filter((f) => f.endsWith(".js"));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) => DOOR_CALL.test(readFileSync(path.join(BUILD, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
