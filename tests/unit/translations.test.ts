import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NAMESPACES } from "~/i18n/languages";

// English must be complete for every string the app renders. This reads the
// source for t("...") calls, resolves each key's namespace (an explicit
// "Ns:key", else the first namespace given to useTranslation in that file)
// and checks the key exists in public/locales/en/{ns}.json.
const ROOT = path.resolve(__dirname, "../..");
const LOCALES = path.join(ROOT, "public/locales/en");

function load(ns: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(LOCALES, `${ns}.json`), "utf8"));
}

function has(tree: Record<string, unknown>, key: string): boolean {
  let node: unknown = tree;
  const parts = key.split(".");
  for (let i = 0; i < parts.length; i++) {
    if (typeof node !== "object" || node === null) return false;
    const rec = node as Record<string, unknown>;
    const last = i === parts.length - 1;
    // i18next plurals: key_one / key_other stand for key.
    if (last && !(parts[i]! in rec)) return `${parts[i]}_other` in rec;
    node = rec[parts[i]!];
  }
  return typeof node === "string";
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("English translations", () => {
  it("have a file for every namespace of spec section 9", () => {
    const files = readdirSync(LOCALES).map((f) => f.replace(/\.json$/, ""));
    expect(files.sort()).toEqual([...NAMESPACES].sort());
  });

  it("contain every key the source uses", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(path.join(ROOT, "app"))) {
      const src = readFileSync(file, "utf8");
      const ns = /useTranslation\(\s*(?:\[\s*)?"([^"]+)"/.exec(src)?.[1] ?? "Global";
      for (const match of src.matchAll(/\bt\(\s*"([^"]+)"/g)) {
        const raw = match[1]!;
        const [keyNs, key] = raw.includes(":") ? raw.split(":", 2) : [ns, raw];
        checked++;
        if (!has(load(keyNs!), key!)) missing.push(`${path.relative(ROOT, file)}: ${keyNs}:${key}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('contain every message key of schemas and errors (msg("Ns:key"))', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(path.join(ROOT, "app"))) {
      const src = readFileSync(file, "utf8");
      for (const match of src.matchAll(/\bmsg\(\s*"([^"]+)"/g)) {
        const [keyNs, key] = match[1]!.split(":", 2);
        checked++;
        if (!key || !has(load(keyNs!), key)) missing.push(`${path.relative(ROOT, file)}: ${match[1]}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it("have a subject, a body and a name for every notification e-mail", async () => {
    const { NOTIFICATIONS, defaultTexts } = await import("~/models/notifications/catalogue");
    for (const { key } of NOTIFICATIONS) {
      const { namespace, path } = defaultTexts(key);
      expect(has(load(namespace), `${path}.subject`), key).toBe(true);
      expect(has(load(namespace), `${path}.body`), key).toBe(true);
      expect(has(load("Mails"), `names.${key.replace(".", "_")}`), key).toBe(true);
    }
  });

  it("cover the menu, settings tabs and plans named in code", async () => {
    const { MENU_ITEMS } = await import("~/lib/menu");
    const { SETTINGS_TABS } = await import("~/lib/settings-tabs");
    const { PLANS } = await import("~/models/plans/plans");
    for (const item of MENU_ITEMS) expect(has(load("TopMenu"), item.key), item.key).toBe(true);
    for (const tab of SETTINGS_TABS) expect(has(load(tab.ns), tab.titleKey), tab.tab).toBe(true);
    for (const key of [...SETTINGS_TABS.map((tab) => tab.key), "staff"])
      expect(has(load("Settings"), `descriptions.${key}`), key).toBe(true);
    for (const plan of PLANS) expect(has(load("Plans"), `plans.${plan.id}.name`), plan.id).toBe(true);
  });
});
