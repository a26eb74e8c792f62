import path from "node:path";
import { ensureSecrets } from "./secrets";

const root = path.resolve(__dirname, "../..");

/** Where the SQLite file, the secrets and the store simulator's state live. */
export function dataDirectory() {
  return process.env.DATA_DIR ?? path.join(root, "data");
}

/** Environment every process of the app starts from (server, worker, simulator). */
export function loadEnvironment() {
  const dataDir = dataDirectory();
  const secrets = ensureSecrets(dataDir);
  process.env.DATABASE_URL ||= `file:${path.join(dataDir, "app.sqlite")}`;
  process.env.NODE_ENV ||= "production";
  return { root, dataDir, secrets };
}
