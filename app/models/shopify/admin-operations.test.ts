import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Kind, NoDeprecatedCustomRule, parse, specifiedRules, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { ADMIN_SCHEMA_SOURCE, adminSchema } from "~/simulator/admin-schema";
import { shopifyValidationError } from "~/simulator/graphql-errors";
import { ADMIN_OPERATIONS } from "./admin-operations";

// Every document the app sends, checked against Shopify's published Admin
// schema for the app's API version, offline. A typo, a field Shopify removed
// or a wrong argument type fails here, not in production.

const APP_DIR = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe(`Admin GraphQL documents (schema ${ADMIN_SCHEMA_SOURCE.apiVersion})`, () => {
  it("the app uses the schema's API version", () => {
    const config = readFileSync(path.join(APP_DIR, "config.server.ts"), "utf8");
    expect(config).toContain(`SHOPIFY_API_VERSION: z.string().default("${ADMIN_SCHEMA_SOURCE.apiVersion}")`);
    const toml = readFileSync(path.join(APP_DIR, "../shopify.app.toml"), "utf8");
    expect(toml).toContain(`api_version = "${ADMIN_SCHEMA_SOURCE.apiVersion}"`);
  });

  it.each(ADMIN_OPERATIONS.map((op) => [op.name, op] as const))(
    "%s is valid against the schema and uses no deprecated field",
    (name, op) => {
      const document = parse(op.document);
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      expect(operations).toHaveLength(1);
      expect(operations[0]!.kind === Kind.OPERATION_DEFINITION && operations[0]!.name?.value).toBe(name);
      const errors = validate(adminSchema(), document, [...specifiedRules, NoDeprecatedCustomRule]);
      expect(errors.map((e) => e.message)).toEqual([]);
    },
  );

  it("names every operation once", () => {
    const names = ADMIN_OPERATIONS.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("refuses a deliberately wrong query with Shopify's error shape", () => {
    const wrong = parse(`query ProductTitles($ids: [ID!]!) {
      nodes(ids: $ids) {
        ... on Product {
          id
          titel
        }
      }
    }`);
    const [error, ...rest] = validate(adminSchema(), wrong);
    expect(rest).toEqual([]);
    expect(shopifyValidationError(error!, wrong)).toEqual({
      message: "Field 'titel' doesn't exist on type 'Product'",
      locations: [{ line: 5, column: 11 }],
      path: ["query ProductTitles", "nodes", "... on Product", "titel"],
      extensions: { code: "undefinedField", typeName: "Product", fieldName: "titel" },
    });
  });

  it("finds no GraphQL document or Admin API call outside the list and the client", () => {
    const allowed = new Set(
      ["models/shopify/admin-operations.ts", "models/shopify/admin-client.server.ts"].map((f) => path.join(APP_DIR, f)),
    );
    const offenders = sourceFiles(APP_DIR)
      .filter((file) => !allowed.has(file) && !file.startsWith(path.join(APP_DIR, "simulator")))
      .filter((file) => /#graphql|\.graphql\(|clients\.Graphql/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(APP_DIR, file));
    expect(offenders).toEqual([]);
  });
});
