import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { Prisma } from "~/db/generated/sqlite";
import { PUBLIC_SCHEMES, type PublicScheme } from "~/door/door.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The route manifest: every loader and action of the built app goes through
// the door (app/door), and every merchant page outside the areas every staff
// member may open refuses a staff member without permissions: 403, none of
// the page's data, and no change in the database. A new route that skips the
// door, or opens an area to everyone by accident, fails here.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const DOOR = Symbol.for("app.door");
type Mark = { kind: string; area?: string; scheme?: PublicScheme };

// Screens every staff member may open (area "any"): a deliberate, short list.
const OPEN_TO_ALL_STAFF = [
  "routes/$role",
  "routes/$role.$",
  "routes/$role._index",
  "routes/$role.contact-us",
  "routes/$role.dashboard",
  // Help texts; each section's screen keeps its own area.
  "routes/$role.help",
  "routes/$role.not-found",
  // Shows staff that the admin must choose a plan, nothing else (tested in admin-shell).
  "routes/$role.plans._index",
  // The admin client's shop record (GET); its POST needs the settings area.
  "routes/api.shop",
];

// Where the calls that someone outside signs or makes land: a route there
// must use that scheme's door, and that door is used nowhere else.
const SCHEME_OF_PATH: [prefix: string, scheme: PublicScheme][] = [
  ["/proxy/", "appProxy"],
  ["/api/checkout/", "checkout"],
  ["/api/customer-account/", "customerAccount"],
  ["/api/pixel/", "pixel"],
  ["/webhooks/", "signedWebhook"],
  ["/flow/actions/", "flowAction"],
];

async function loadRoutes() {
  const { loadBuild } = await import("~/server/app-server");
  const build: ServerBuild = loadBuild();
  return Object.values(build.routes).map((route) => ({
    id: route.id,
    path: route.path ?? "",
    parentId: route.parentId,
    loader: route.module.loader as unknown as ({ [DOOR]?: Mark } & object) | undefined,
    action: route.module.action as unknown as ({ [DOOR]?: Mark } & object) | undefined,
  }));
}

/** The URL path of a route, built from its own path and its parents'. */
function fullPath(routes: Awaited<ReturnType<typeof loadRoutes>>, id: string): string {
  const route = routes.find((r) => r.id === id)!;
  const parent = route.parentId && route.parentId !== "root" ? fullPath(routes, route.parentId) : "";
  return [parent, route.path].filter(Boolean).join("/");
}

async function tableCounts() {
  const db = getDb() as unknown as Record<string, { count: () => Promise<number> }>;
  const counts: Record<string, number> = {};
  for (const model of Prisma.dmmf.datamodel.models) {
    // Sessions and rate-limit rows record the visit itself, not a change.
    if (["Session", "UserSession", "AffiliateSession", "RateLimiterFlexible"].includes(model.name)) continue;
    const name = model.name.charAt(0).toLowerCase() + model.name.slice(1);
    counts[model.name] = await db[name]!.count();
  }
  return counts;
}

describe("route manifest", () => {
  it("sends every loader and action of the built app through the door", async () => {
    const routes = await loadRoutes();
    const missing: string[] = [];
    let checked = 0;
    for (const route of routes) {
      for (const [kind, fn] of [
        ["loader", route.loader],
        ["action", route.action],
      ] as const) {
        if (!fn) continue;
        checked++;
        if (!fn[DOOR]) missing.push(`${route.id} ${kind}`);
      }
    }
    expect(checked).toBeGreaterThan(60);
    expect(missing).toEqual([]);
  });

  it("names how every public route knows its caller, with the door of that scheme", async () => {
    const routes = await loadRoutes();
    const wrong: string[] = [];
    const count: Partial<Record<PublicScheme, number>> = {};
    for (const route of routes) {
      const path = `/${fullPath(routes, route.id)}`;
      const expected = SCHEME_OF_PATH.find(([prefix]) => path.startsWith(prefix))?.[1];
      for (const fn of [route.loader, route.action]) {
        const doorMark = fn?.[DOOR];
        if (doorMark?.kind !== "public") continue;
        const scheme = doorMark.scheme;
        if (!scheme || !PUBLIC_SCHEMES.includes(scheme)) wrong.push(`${route.id}: no scheme`);
        else if (expected ? scheme !== expected : SCHEME_OF_PATH.some(([, s]) => s === scheme))
          wrong.push(`${route.id}: ${scheme}, expected ${expected ?? "page, file or oauth"}`);
        else count[scheme] = (count[scheme] ?? 0) + 1;
      }
    }
    expect(wrong).toEqual([]);
    // Each of the signed schemes is in use (a door nobody uses would go untested).
    for (const [, scheme] of SCHEME_OF_PATH) expect(count[scheme], scheme).toBeGreaterThan(0);
    console.log(`public loaders and actions by scheme: ${JSON.stringify(count)}`);
  });

  it("opens only the listed merchant screens to every staff member", async () => {
    const routes = await loadRoutes();
    const open = routes
      .filter((r) => [r.loader, r.action].some((fn) => fn?.[DOOR]?.kind === "merchant" && fn[DOOR]!.area === "any"))
      .map((r) => r.id)
      .sort();
    expect(open).toEqual([...OPEN_TO_ALL_STAFF].sort());
  });

  it("refuses a staff member without permissions on every other merchant loader and action: 403, no data, no change", async () => {
    const routes = await loadRoutes();
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    const order = await getDb().order.create({
      data: {
        shopId: shop.id,
        shopifyGid: "gid://shopify/Order/1",
        name: "#1001",
        currency: "USD",
        subtotal: 10_000,
        total: 10_000,
        status: "pending",
        affiliateId: affiliate.id,
        placedAt: new Date(),
      },
    });
    await buildUser(shop.id, { role: "staff", email: "nobody@example.com", permissions: [] });
    const staff = new HttpClient(server.url);
    expect(
      (await staff.postForm("/staff/login", { email: "nobody@example.com", password: TEST_PASSWORD })).status,
    ).toBe(302);
    // Real ids of this shop: a route that forgot its area would find them.
    const idFor = (path: string) =>
      path.includes("campaigns")
        ? campaign.id
        : path.includes("sales")
          ? order.id
          : path.includes("portals")
            ? "landing"
            : affiliate.id;
    const before = await tableCounts();
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const route of routes) {
      const guarded = [route.loader, route.action].filter(
        (fn) => fn?.[DOOR]?.kind === "merchant" && fn[DOOR]!.area !== "any",
      );
      if (!guarded.length || OPEN_TO_ALL_STAFF.includes(route.id)) continue;
      const template = fullPath(routes, route.id);
      const path = `/${template}`
        .replace(":role", "staff")
        .replace(":id", idFor(template))
        .replace(":tab", "general")
        .replace(":decision", "approve")
        .replace("*", "anything");
      const data = `${path}?_data=${encodeURIComponent(route.id)}`;
      const answers: [string, Response][] = [];
      if (route.loader) answers.push(["GET", await staff.get(data)]);
      if (route.action) {
        answers.push([
          "POST",
          await staff.postForm(data, { intent: "delete", ids: affiliate.id, id: affiliate.id, portalDomain: "x.test" }),
        ]);
        answers.push(["POST json", await staff.postJson(data, { intent: "approve", ids: [order.id] })]);
      }
      for (const [method, res] of answers) {
        const text = await res.text();
        const label = `${method} ${path} (${route.id})`;
        if (res.status !== 403) allowed.push(`${label}: ${res.status}`);
        else {
          refused.push(label);
          // The body is the error and where to go, nothing of the page.
          expect(Object.keys(JSON.parse(text)).sort(), label).toEqual(["error", "home"]);
        }
      }
    }
    expect(allowed).toEqual([]);
    expect(refused.length).toBeGreaterThan(25);
    expect(await tableCounts()).toEqual(before);
  });
});
