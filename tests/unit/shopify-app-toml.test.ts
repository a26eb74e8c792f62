import { readFileSync } from "node:fs";
import path from "node:path";
import { Kind, parse, visit } from "graphql";
import { describe, expect, it } from "vitest";
import { ADMIN_OPERATIONS } from "~/models/shopify/admin-operations";
import { WEBHOOK_TOPICS } from "~/models/webhooks/process-webhook.server";
import { FIELD_SCOPES, hasScope, NODE_SCOPES } from "~/simulator/admin-common";
import { SCOPES } from "~/shopify.server";

// shopify.app.toml is what Shopify CLI deploys: the topics Shopify sends must
// be exactly the ones POST /webhooks handles, and the scopes those of spec §7
// plus every one the app's Admin API calls, webhooks and extensions need.
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

  it("keeps spec section 7's scopes", () => {
    for (const scope of [
      "read_discounts",
      "write_discounts",
      "read_orders",
      "read_products",
      "read_themes",
      "write_price_rules",
      "read_script_tags",
      "write_script_tags",
    ])
      expect(SCOPES).toContain(scope);
  });

  it("requests every scope the app's Admin API operations, webhook topics and extensions need", () => {
    // What each part needs, from Shopify's documentation: a root field's or
    // a node type's scope (the table the store simulator enforces), the
    // order and product topics' read scopes, the app proxy's write_app_proxy
    // and a web pixel's write_pixels with read_customer_events.
    const needed = new Map<string, Set<string>>();
    const need = (scope: string, by: string) => needed.set(scope, (needed.get(scope) ?? new Set()).add(by));
    for (const op of ADMIN_OPERATIONS) {
      const definition = parse(op.document).definitions[0]!;
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      for (const selection of definition.selectionSet.selections)
        if (selection.kind === Kind.FIELD)
          for (const scope of FIELD_SCOPES[selection.name.value] ?? []) need(scope, op.name);
      visit(definition, {
        InlineFragment(node) {
          const scope = node.typeCondition && NODE_SCOPES[node.typeCondition.name.value];
          if (scope) need(scope, op.name);
        },
      });
    }
    for (const topic of WEBHOOK_TOPICS) {
      if (/^(orders|refunds)\//.test(topic)) need("read_orders", topic);
      if (topic.startsWith("products/")) need("read_products", topic);
      if (topic.startsWith("subscription_contracts/")) need("read_own_subscription_contracts", topic);
    }
    if (/^\[app_proxy\]/m.test(TOML)) need("write_app_proxy", "[app_proxy]");
    const pixel = readFileSync(
      path.resolve(__dirname, "../../extensions/affiliate-pixel/shopify.extension.toml"),
      "utf8",
    );
    if (/^type\s*=\s*"web_pixel_extension"/m.test(pixel)) {
      need("write_pixels", "affiliate-pixel");
      need("read_customer_events", "affiliate-pixel");
    }
    // Every operation of the pixel job is in the list (a sanity check of the walk).
    expect([...needed.get("write_pixels")!]).toEqual(expect.arrayContaining(["WebPixelCreate", "WebPixelUpdate"]));
    // Gift card payouts (issue 30) issue cards and look them up by code.
    expect([...needed.get("write_gift_cards")!]).toEqual(["GiftCardCreate"]);
    expect([...needed.get("read_gift_cards")!]).toEqual(["GiftCardsByCode"]);
    const missing = [...needed].filter(([scope]) => !SCOPES.some((granted) => hasScope([granted], scope)));
    expect(missing.map(([scope, by]) => `${scope} (${[...by].join(", ")})`)).toEqual([]);
  });
});
