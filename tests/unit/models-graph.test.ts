import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { moduleSpecifiers } from "../support/module-specifiers";

// The folder graph of app/models: an edge A → B when a module of folder A
// imports (value or type, static or dynamic, export-from included) a module
// of folder B. Tests are left out: they may reach anywhere. Two folders that
// import each other cannot be read, changed or tested one without the other,
// so a new mutual pair fails here; the allow-list below is the residue being
// paid off and may only shrink (a pair that is gone must leave the list too).
//
// "Upward" is measured against the layer order declared here, bottom first:
// an edge from a folder to one in a higher layer points up. Edges inside one
// layer are "sideways" and are counted but not judged. The order is the
// intended shape (docs/decisions/ for the layout), not a description of the
// code: an upward edge is a place where the code disagrees with it.
const LAYERS: string[][] = [
  // 0. The kernel: job payloads and enqueue, event types and emit, shared
  // helpers and pure money arithmetic (currency). Imports no domain (lint-enforced for jobs and events).
  ["jobs", "events", "pagination", "csv", "translations", "currency"],
  // 1. Platform: the shop itself, outside systems, observability, sign-in, image work, file storage.
  ["ops", "shopify", "mail", "plans", "shop", "settings", "auth", "api-keys", "tracking", "images", "storage"],
  // 2. The domains.
  [
    "campaigns",
    "affiliates",
    "attribution",
    "commissions",
    "orders",
    "sales",
    "payouts",
    "paypal",
    "tax-forms",
    "leaks",
    "creatives",
    "marketings",
    "bonuses",
    "tiers",
    "referrals",
    "dashboard",
    "reports",
    "networks",
    "staff",
    "notifications",
    "portal",
    "subscriptions",
  ],
  // 3. Features that span domains and the inbound/outbound integrations.
  ["webhooks-out", "webhooks", "affiliate-account", "claims", "marketplace", "privacy", "demo", "setup", "flow"],
  // 4. Adapters: the REST API (handlers, serializers, OpenAPI).
  ["api"],
];

// Mutual pairs still to untangle ("a<->b", a < b). May only shrink.
const ALLOWED_MUTUAL = new Set<string>(["payouts<->paypal"]);

const ROOT = path.resolve(__dirname, "../..");
const MODELS = path.join(ROOT, "app/models");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The top folder under app/models a specifier resolves to (undefined: outside app/models). */
function targetFolder(file: string, specifier: string): string | undefined {
  let resolved: string;
  if (specifier.startsWith(".")) resolved = path.resolve(path.dirname(file), specifier);
  else if (specifier.startsWith("~/")) resolved = path.join(ROOT, "app", specifier.slice(2));
  else return undefined;
  const relative = path.relative(MODELS, resolved);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0];
}

function folderGraph() {
  const edges = new Map<string, Set<string>>();
  for (const file of sources(MODELS)) {
    const from = path.relative(MODELS, file).split(path.sep)[0]!;
    for (const specifier of moduleSpecifiers(file)) {
      const to = targetFolder(file, specifier);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));
const graph = folderGraph();
const allEdges = [...graph].flatMap(([from, tos]) => [...tos].map((to) => [from, to] as const)).sort();
const mutual = allEdges
  .filter(([from, to]) => from < to && graph.get(to)?.has(from))
  .map(([from, to]) => `${from}<->${to}`);
const upward = allEdges.filter(([from, to]) => layerOf.get(to)! > layerOf.get(from)!);
const sideways = allEdges.filter(([from, to]) => layerOf.get(to) === layerOf.get(from));

describe("app/models folder graph", () => {
  it("prints its numbers", () => {
    console.log(
      [
        `app/models: ${graph.size} folders import others, ${allEdges.length} edges, ` +
          `${mutual.length} mutual pairs, ${upward.length} upward, ${sideways.length} sideways`,
        `mutual: ${mutual.join(", ") || "none"}`,
        `upward: ${upward.map(([from, to]) => `${from}→${to}`).join(", ") || "none"}`,
      ].join("\n"),
    );
    expect(allEdges.length).toBeGreaterThan(0);
  });

  it("places every folder in one layer", () => {
    const folders = fs
      .readdirSync(MODELS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !layerOf.has(folder))).toEqual([]);
    expect([...layerOf.keys()].filter((folder) => !folders.includes(folder))).toEqual([]);
    expect(LAYERS.flat().length).toBe(layerOf.size);
  });

  it("has no mutual pair outside the allow-list", () => {
    expect(mutual.filter((pair) => !ALLOWED_MUTUAL.has(pair))).toEqual([]);
  });

  it("keeps the allow-list only as long as the residue (a pair that is gone leaves the list)", () => {
    expect([...ALLOWED_MUTUAL].filter((pair) => !mutual.includes(pair))).toEqual([]);
  });
});
