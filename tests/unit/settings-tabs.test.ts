import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS_TABS } from "~/lib/settings-tabs";

// One pattern for settings tabs (CONTRIBUTING, "Add a settings tab"): each tab
// is a route of its own beside the settings index, through the door, and its
// page is the shared SettingsPage (back to Settings, Save, the unsaved-changes
// prompt, the one "Save successful"). No catch-all route renders tabs.
const ROUTES = path.resolve(__dirname, "../../app/routes");

function routeFile(tab: string) {
  return [`$role.settings.${tab}.tsx`, `$role.settings.${tab}._index.tsx`]
    .map((name) => path.join(ROUTES, name))
    .find((file) => existsSync(file));
}

/** The route's own source and the components it imports from ~/components/settings or the domain's folder. */
function pageSource(file: string) {
  const source = readFileSync(file, "utf8");
  const imported = [...source.matchAll(/from "~\/components\/([\w/]+)"/g)].map((m) =>
    path.resolve(__dirname, "../../app/components", `${m[1]}.tsx`),
  );
  return [source, ...imported.filter((f) => existsSync(f)).map((f) => readFileSync(f, "utf8"))].join("\n");
}

describe("settings tabs", () => {
  it("have no catch-all route", () => {
    expect(readdirSync(ROUTES).filter((name) => name.startsWith("$role.settings.$"))).toEqual([]);
  });

  it.each([...SETTINGS_TABS.map((t) => t.tab), "staff"])("%s is a route of its own through the door", (tab) => {
    const file = routeFile(tab);
    expect(file, tab).toBeDefined();
    const source = readFileSync(file!, "utf8");
    // Staff is its own permission area (admins only); every other tab is "settings".
    const area = tab === "staff" ? "staff" : "settings";
    expect(source).toMatch(new RegExp(`merchantRoute\\(\\s*\\{ area: "${area}"|areaPage\\("${area}"\\)`));
  });

  it.each(["general", "branding", "marketplace", "payment", "networks", "autotier", "promote-link"])(
    "%s is shown on the shared SettingsPage",
    (tab) => {
      expect(pageSource(routeFile(tab)!)).toContain("<SettingsPage");
    },
  );
});
