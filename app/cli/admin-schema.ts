// `npm run schema:fetch` (and the root postinstall of `npm install`): puts
// Shopify's Admin GraphQL schema in the git-ignored cache. Only the one file
// is taken from the @shopify/dev-mcp package tarball (`npm pack`, so the
// user's registry settings apply), and only if it matches the recorded hash.
// `--check` fetches nothing: it fails with the way out when the file is
// missing (npm test and npm start run it first).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ADMIN_SCHEMA_FILE,
  ADMIN_SCHEMA_SOURCE,
  AdminSchemaMissingError,
  readAdminSchemaFile,
  sha256,
} from "../simulator/admin-schema";

function present(): boolean {
  try {
    readAdminSchemaFile();
    return true;
  } catch {
    return false;
  }
}

function fetchSchema() {
  const work = mkdtempSync(path.join(tmpdir(), "admin-schema-"));
  try {
    const spec = `${ADMIN_SCHEMA_SOURCE.npmPackage}@${ADMIN_SCHEMA_SOURCE.npmVersion}`;
    const out = execFileSync("npm", ["pack", spec, "--pack-destination", work, "--json", "--silent"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [packed] = JSON.parse(out) as { filename: string }[];
    if (!packed) throw new Error(`npm pack ${spec} produced no tarball`);
    execFileSync("tar", ["-xzf", path.join(work, packed.filename), "-C", work, ADMIN_SCHEMA_SOURCE.entry]);
    const extracted = path.join(work, ADMIN_SCHEMA_SOURCE.entry);
    const hash = sha256(readFileSync(extracted));
    if (hash !== ADMIN_SCHEMA_SOURCE.sha256)
      throw new Error(
        `${spec} ${ADMIN_SCHEMA_SOURCE.entry} has sha256 ${hash}, expected ${ADMIN_SCHEMA_SOURCE.sha256}`,
      );
    mkdirSync(path.dirname(ADMIN_SCHEMA_FILE), { recursive: true });
    renameSync(extracted, ADMIN_SCHEMA_FILE);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// A production install (`npm ci --omit=dev`, the container's) runs neither
// the store simulator nor the tests: nothing to fetch.
const productionInstall = (process.env.npm_config_omit ?? "").split(/[\s,]+/).includes("dev");

const mode = process.argv[2] ?? "fetch";
if (mode === "fetch" && productionInstall) {
  console.log("Shopify Admin schema: not fetched (a production install; only the simulator and the tests use it)");
} else if (mode === "--check") {
  if (!present()) {
    const reason = existsSync(ADMIN_SCHEMA_FILE) ? "does not match its recorded hash" : "is missing";
    console.error(new AdminSchemaMissingError(reason).message);
    process.exit(1);
  }
} else if (present()) {
  console.log(`Shopify Admin schema ${ADMIN_SCHEMA_SOURCE.apiVersion}: present (${ADMIN_SCHEMA_FILE})`);
} else {
  try {
    fetchSchema();
    console.log(`Shopify Admin schema ${ADMIN_SCHEMA_SOURCE.apiVersion}: fetched into ${ADMIN_SCHEMA_FILE}`);
  } catch (error) {
    console.error(
      `Could not fetch the Shopify Admin GraphQL schema: ${error instanceof Error ? error.message : error}\n` +
        "The store simulator and the tests need it; run `npm run schema:fetch` once the npm registry is reachable.",
    );
    process.exit(1);
  }
}
