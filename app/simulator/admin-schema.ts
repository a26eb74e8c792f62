import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

// Shopify's own Admin GraphQL schema (introspection JSON) for the app's API
// version. It ships in the npm package @shopify/dev-mcp, which the app does
// not depend on (it pulls in Shopify CLI and more): `npm install` fetches
// that one file into a git-ignored cache (app/cli/admin-schema.ts) and every
// reader checks it against the hash recorded here. Nothing reaches the
// network at run time.
export const ADMIN_SCHEMA_SOURCE = {
  apiVersion: "2026-07",
  npmPackage: "@shopify/dev-mcp",
  npmVersion: "1.16.0",
  entry: "package/dist/data/admin_2026-07.json.gz",
  sha256: "5bcde995c89c59acdb2ee494378d96f45ce7378a16ec829a74b71d696a08ef19",
} as const;

const ROOT = path.resolve(__dirname, "../..");
export const ADMIN_SCHEMA_FILE = path.join(
  ROOT,
  ".cache/shopify-admin-schema",
  `admin_${ADMIN_SCHEMA_SOURCE.apiVersion}.json.gz`,
);

export class AdminSchemaMissingError extends Error {
  constructor(reason: string) {
    super(
      `The Shopify Admin GraphQL schema (${ADMIN_SCHEMA_SOURCE.apiVersion}) ${reason}: ${ADMIN_SCHEMA_FILE}.\n` +
        `It is fetched by \`npm install\` from the npm registry (${ADMIN_SCHEMA_SOURCE.npmPackage}@${ADMIN_SCHEMA_SOURCE.npmVersion}); ` +
        "run `npm run schema:fetch` to fetch it again.",
    );
    this.name = "AdminSchemaMissingError";
  }
}

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The gzipped introspection file, checked against the recorded hash. */
export function readAdminSchemaFile(file = ADMIN_SCHEMA_FILE): Buffer {
  if (!existsSync(file)) throw new AdminSchemaMissingError("is missing");
  const bytes = readFileSync(file);
  if (sha256(bytes) !== ADMIN_SCHEMA_SOURCE.sha256)
    throw new AdminSchemaMissingError("does not match its recorded hash");
  return bytes;
}

let cached: GraphQLSchema | undefined;

/** The Admin schema, built once per process (about 0.2 s and 100 MB). */
export function adminSchema(): GraphQLSchema {
  if (cached) return cached;
  const introspection = JSON.parse(gunzipSync(readAdminSchemaFile()).toString("utf8")) as { data: IntrospectionQuery };
  cached = buildClientSchema(introspection.data);
  return cached;
}
