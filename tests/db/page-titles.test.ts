import { describe, expect, it } from "vitest";
import { fixedT } from "~/i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO } from "~/i18n/language-table";
import { screenTitle, titleNamespace, type TitleArgs } from "~/i18n/page-title";
import type { RouteHandle } from "~/i18n/route-handle";
import { loadBuild } from "~/server/app-server";
import { applyTestEnv } from "../support/test-env";

// Every screen of the built app names its <title> (handle.title), in a
// namespace its document loads, with an English text, and no two screens
// share one on the same side. Rendering is checked in the browser (tests/e2e/pseudo-locale.test.ts:
// translated titles and one <main> per page); this covers the routes that
// sweep does not open. Needs the built app.

applyTestEnv();

// Routes that show another's screen: a page route whose loader redirects or
// answers 404 shows the not-found page.
const SAME_SCREEN: Record<string, string> = {
  "routes/$role._index": "routes/$role.not-found",
  "routes/$role.$": "routes/$role.not-found",
};
// Layouts: the screen inside them names the title.
const LAYOUTS = new Set(["root", "routes/$role", "routes/account"]);

// The documents of routes whose title depends on the params or the loader data.
const VARIANTS: Record<string, Partial<TitleArgs>[]> = {
  "routes/$role.campaigns.$id": [{ params: { id: "new" } }, { params: { id: "c1" } }],
  "routes/$role.bonuses.$id": [{ params: { id: "new" } }, { params: { id: "b1" } }],
  "routes/$role.creatives.$id": [
    { params: { id: "new" }, data: { kind: "text" } },
    { params: { id: "new" }, data: { kind: "video" } },
    { params: { id: "c1" }, data: { kind: null } },
  ],
  "routes/$role.mails.$key": [
    { params: { key: "affiliate.approved" }, data: {} },
    { params: { key: "merchant.sale" }, data: {} },
  ],
  "routes/$role.portals.$id": [
    { params: { id: "landing" } },
    { params: { id: "signup" } },
    { params: { id: "login" } },
  ],
  "routes/account.sales.$id": [{ data: { sale: { name: "#1001" } } }],
  "routes/portal.$handle._index": [{ data: { chrome: { shopName: "Acme" } } }],
  "routes/portal.$handle.signup": [{ data: { chrome: { shopName: "Acme" } } }],
  "routes/portal.$handle.login": [{ data: { chrome: { shopName: "Acme" } } }],
};

describe("document titles", () => {
  const build = loadBuild();
  const routes = Object.values(build.routes);
  const screens = routes.filter((route) => route.module.default && !LAYOUTS.has(route.id));

  /** The namespaces a document of this route renders with (its own and its parents' handle.i18n). */
  function documentNamespaces(id: string): string[] {
    const names: string[] = [];
    for (
      let route: (typeof routes)[number] | undefined = build.routes[id];
      route;
      route = route.parentId ? build.routes[route.parentId] : undefined
    ) {
      const i18n = (route.module.handle as RouteHandle | undefined)?.i18n ?? [];
      names.push(...(typeof i18n === "string" ? [i18n] : i18n));
    }
    return ["Global", ...names];
  }

  it("finds the app's screens", () => {
    expect(screens.length).toBeGreaterThan(60);
  });

  it("gives every screen a translated title of its own", () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const route of screens) {
      const handle = route.module.handle as RouteHandle | undefined;
      if (handle?.title === undefined) {
        problems.push(`${route.id}: no handle.title`);
        continue;
      }
      for (const variant of VARIANTS[route.id] ?? [{}]) {
        const where = `${route.id} ${JSON.stringify(variant)}`;
        const title = screenTitle([{ handle, params: variant.params ?? {}, data: variant.data }]);
        if (!title) {
          problems.push(`${where}: no title`);
          continue;
        }
        const ns = titleNamespace(title.key);
        if (!documentNamespaces(route.id).includes(ns)) problems.push(`${where}: ${ns} is not among its namespaces`);
        const text = fixedT(DEFAULT_LANGUAGE_INFO, [ns])(title.key, title.values ?? {});
        const key = title.key.slice(ns.length + 1);
        if (!text || text === key || text === title.key) problems.push(`${where}: ${title.key} has no English text`);
        // Merchants and affiliates see different brands after the screen's
        // name ("Sales · Affiliate & Referral", "Sales · Acme"): distinct per side.
        const side = handle.portal ? "affiliate" : "merchant";
        const sameAs = SAME_SCREEN[route.id];
        if (sameAs) {
          const target = screenTitle([{ handle: build.routes[sameAs]?.module.handle, params: {}, data: undefined }]);
          if (target?.key !== title.key) problems.push(`${where}: not titled as ${sameAs}`);
          continue;
        }
        const other = seen.get(`${side}\n${text}`);
        if (other) problems.push(`${where}: "${text}" is the title of ${other} too`);
        seen.set(`${side}\n${text}`, where);
      }
    }
    expect(problems).toEqual([]);
  });
});
