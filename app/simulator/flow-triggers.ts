import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// The app's Shopify Flow triggers as Shopify knows them after `shopify app
// deploy`: each flow_trigger extension under extensions/, with the keys of
// its fields. The simulator's flowTriggerReceive accepts only these handles
// and payloads that carry every field (Flow refuses a payload missing one).

const EXTENSIONS = path.resolve(__dirname, "../../extensions");

export interface FlowTriggerDefinition {
  handle: string;
  keys: string[];
}

/** Reads one extension TOML's trigger (null: not a flow_trigger). */
export function flowTriggerOf(toml: string): FlowTriggerDefinition | null {
  if (!/^\s*type\s*=\s*"flow_trigger"/m.test(toml)) return null;
  const handle = /^\s*handle\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!handle) return null;
  const keys = [...toml.matchAll(/^\s*key\s*=\s*"([^"]+)"/gm)].map((m) => m[1]!);
  // Reference fields (customer_reference...) carry `<type>_id` keys; none are used here.
  return { handle, keys };
}

export function flowTriggerDefinitions(dir = EXTENSIONS): Map<string, FlowTriggerDefinition> {
  const found = new Map<string, FlowTriggerDefinition>();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name, "shopify.extension.toml");
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const trigger = flowTriggerOf(readFileSync(file, "utf8"));
    if (trigger) found.set(trigger.handle, trigger);
  }
  return found;
}
