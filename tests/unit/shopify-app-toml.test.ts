import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WEBHOOK_TOPICS } from "~/models/webhooks/process-webhook.server";
import { SCOPES } from "~/shopify.server";

// shopify.app.toml is what Shopify CLI deploys: the topics Shopify sends must
// be exactly the ones POST /webhooks handles, and the scopes those of spec §7.
const TOML = readFileSync(path.resolve(__dirname, "../../shopify.app.toml"), "utf8");

const listAfter = (key: string) =>
  [...TOML.matchAll(new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, "gm"))].flatMap((m) =>
    [...m[1]!.matchAll(/"([^"]+)"/g)].map((q) => q[1]!),
  );

describe("shopify.app.toml", () => {
  it("subscribes to every webhook topic the app handles, and to no other", () => {
    const declared = [...listAfter("topics"), ...listAfter("compliance_topics")];
    expect([...declared].sort()).toEqual([...WEBHOOK_TOPICS].sort());
    expect(listAfter("compliance_topics").sort()).toEqual([
      "customers/data_request",
      "customers/redact",
      "shop/redact",
    ]);
    expect([...TOML.matchAll(/^\s*uri\s*=\s*"([^"]+)"/gm)].map((m) => m[1])).toEqual(["/webhooks", "/webhooks"]);
  });

  it("requests the scopes the app asks for at install", () => {
    const scopes = /^scopes\s*=\s*"([^"]*)"/m.exec(TOML)![1]!.split(",");
    expect(scopes.sort()).toEqual([...SCOPES].sort());
  });
});
