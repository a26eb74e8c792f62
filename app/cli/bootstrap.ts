import path from "node:path";
import { ensureSecrets } from "./secrets";

/** Environment every process of the app starts from (server, worker, simulator). */
export function loadEnvironment() {
  const root = path.resolve(__dirname, "../..");
  const dataDir = process.env.DATA_DIR ?? path.join(root, "data");
  const secrets = ensureSecrets(dataDir);
  process.env.DATABASE_URL ||= `file:${path.join(dataDir, "app.sqlite")}`;
  process.env.NODE_ENV ||= "production";
  return { root, dataDir, secrets };
}
