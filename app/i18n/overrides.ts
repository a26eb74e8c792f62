import { namespacesFor, type LanguageInfo } from "./language-table";
import { NAMESPACES } from "./languages";
import type { Tree } from "./translation-check";

// A merchant's own wording for texts affiliates read (their brand voice):
// per language, namespace and key, over the shipped files, on the server and
// in the browser. Pure helpers; storage is app/models/translations/.

/** namespace -> flat key ("landing.heading", "sent_one") -> the merchant's text */
export type Overrides = Record<string, Record<string, string>>;

/** Namespaces a merchant may override: what affiliates read (portal and e-mails). */
export function isOverridableNamespace(ns: string): boolean {
  return ns === "Global" || ns === "Mails" || ns.startsWith("Account.");
}

/** The overridable namespaces a language ships (Mails only with the full set). */
export function overridableNamespaces(language: LanguageInfo): string[] {
  return namespacesFor(language.coverage, NAMESPACES).filter(isOverridableNamespace);
}

/** A new tree: `over` deep-merged onto `base` (neither is changed). */
export function mergeTrees(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = typeof value === "object" && typeof below === "object" ? mergeTrees(below, value) : value;
  }
  return out;
}

/**
 * A new tree with each flat key's text replaced. Only the branches on the
 * path of an override are copied; the rest is shared with `tree`, which the
 * server's cache keeps and must never change.
 */
export function applyOverrides(tree: Tree, flat: Record<string, string>): Tree {
  const out: Tree = { ...tree };
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split(".");
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const child = node[parts[i]!];
      // A key the files no longer have (renamed in a later version) is skipped.
      if (typeof child !== "object") {
        node = {};
        break;
      }
      const copy = { ...child };
      node[parts[i]!] = copy;
      node = copy;
    }
    const last = parts[parts.length - 1]!;
    if (typeof node[last] === "string") node[last] = value;
  }
  return out;
}
