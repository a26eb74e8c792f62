// `shopify app dev` (npm run dev) runs this as the web process (shopify.web.toml).
// The CLI hands over the app's real credentials and its tunnel, so the app
// runs in production mode against a real development store: no demo shop, no
// simulator. What production would refuse to invent (the session secret, the
// PayPal key, a database) is local to this machine here, so it is filled in:
// secrets kept in DATA_DIR/secrets.json, the database a SQLite file there.
import { spawn } from "node:child_process";
import path from "node:path";
import { dataDirectory } from "./bootstrap";
import { ensureSecrets } from "./secrets";

function main() {
  if (!process.env.SHOPIFY_API_KEY || !process.env.SHOPIFY_API_SECRET) {
    console.error("Run this through Shopify CLI (`npm run dev`); for the demo without Shopify, run `npm start`.");
    process.exit(1);
  }
  // The CLI also sets HOST to its tunnel's URL, while HOST is this server's
  // bind address here.
  const host = process.env.HOST;
  if (host && /^https?:\/\//.test(host)) {
    process.env.SHOPIFY_APP_URL ||= host;
    delete process.env.HOST;
  }
  process.env.NODE_ENV = "development";
  const dataDir = dataDirectory();
  ensureSecrets(dataDir);
  process.env.DATABASE_URL ||= `file:${path.join(dataDir, "app.sqlite")}`;

  const child = spawn(process.execPath, [...process.execArgv, path.join(__dirname, "start.ts")], {
    stdio: "inherit",
    env: process.env,
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
