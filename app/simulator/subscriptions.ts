import { readFileSync } from "node:fs";
import path from "node:path";

// The webhook topics the app subscribes to, read from shopify.app.toml as
// Shopify reads them at deploy: the simulator sends only these.

const APP_TOML = path.resolve(__dirname, "../../shopify.app.toml");

export function subscribedTopics(toml = readFileSync(APP_TOML, "utf8")): Set<string> {
  const lists = [...toml.matchAll(/^\s*(?:topics|compliance_topics)\s*=\s*\[([^\]]*)\]/gm)];
  return new Set(lists.flatMap((m) => [...m[1]!.matchAll(/"([^"]+)"/g)].map((q) => q[1]!)));
}

/** The access scopes the app asks for (granted by the simulator at install). */
export function requestedScopes(toml = readFileSync(APP_TOML, "utf8")): string[] {
  const line = /^scopes\s*=\s*"([^"]*)"/m.exec(toml)?.[1] ?? "";
  return line
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
