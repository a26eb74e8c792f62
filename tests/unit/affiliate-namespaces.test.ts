import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The affiliate side (portal and account pages, handle.portal) is offered in
// every language with the Account.* namespaces (spec section 9), so it may
// only read Account.* and Global: an admin namespace there would show
// English in most of those languages. Checked in the source: the namespaces
// each page names, and every namespace its code and the portal components
// ask for.

const ROOT = path.resolve(__dirname, "../..");
const allowed = (ns: string) => ns === "Global" || ns.startsWith("Account.");

function namespacesUsed(src: string): string[] {
  const names: string[] = [];
  const handle = /export const handle = \{[^}]*i18n:\s*\[([^\]]*)\]/.exec(src);
  if (handle) names.push(...[...handle[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!));
  for (const m of src.matchAll(/useTranslation\(\s*(\[[^\]]*\]|"[^"]+")/g)) {
    names.push(...[...m[1]!.matchAll(/"([^"]+)"/g)].map((n) => n[1]!));
  }
  // Explicit "Namespace:key" references.
  for (const m of src.matchAll(/\bt\(\s*[`"]([A-Z][\w.]*):/g)) names.push(m[1]!);
  return names;
}

const affiliatePages = readdirSync(path.join(ROOT, "app/routes"))
  .filter((f) => f.endsWith(".tsx"))
  .map((f) => path.join("app/routes", f))
  .filter((f) => /portal:\s*true/.test(readFileSync(path.join(ROOT, f), "utf8")));
const portalComponents = ["PortalLayout.tsx", "PortalErrorBoundary.tsx", "AccountPage.tsx", "FormField.tsx"].map((f) =>
  path.join("app/components/portal", f),
);

describe("affiliate pages", () => {
  it("are found (portal and account routes)", () => {
    expect(affiliatePages.length).toBeGreaterThanOrEqual(15);
    expect(affiliatePages).toContain("app/routes/account.tsx");
    expect(affiliatePages).toContain("app/routes/portal.$handle.signup.tsx");
  });

  it.each([...affiliatePages, ...portalComponents])("%s reads only Account.* and Global", (file) => {
    const used = namespacesUsed(readFileSync(path.join(ROOT, file), "utf8"));
    expect(used.filter((ns) => !allowed(ns))).toEqual([]);
  });
});
