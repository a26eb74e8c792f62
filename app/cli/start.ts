// `npm start`: standalone app on SQLite (or PostgreSQL via DATABASE_URL).
// Fills in generated secrets, applies migrations, seeds the demo shop on the
// first start, serves the app and prints the demo logins.
import path from "node:path";
import { loadEnvironment } from "./bootstrap";
import { superviseChild } from "./supervise";

async function main() {
  const { secrets, dataDir } = loadEnvironment();
  await (await import("../simulator/demo-store")).startDemoStore(dataDir);

  // The demo's webhook receivers run on this machine (docs/decisions/024);
  // a real deployment sets SEED_DEMO=0 and keeps private addresses refused.
  if (process.env.SEED_DEMO !== "0") process.env.WEBHOOKS_ALLOW_PRIVATE ??= "1";
  const { getConfig } = await import("../config.server");
  const config = getConfig();
  const { migrate } = await import("../db/migrate.server");
  const result = await migrate(config.DATABASE_URL);
  if (result.applied.length)
    console.log(`database: applied ${result.applied.length} migration(s): ${result.applied.join(", ")}`);

  const { seedDemoShop, syncDemoCredentials } = await import("../models/demo/seed-demo.server");
  const demo = {
    shopDomain: config.DEMO_SHOP,
    adminEmail: config.DEMO_ADMIN_EMAIL,
    adminPassword: secrets.values.DEMO_ADMIN_PASSWORD,
    staffEmail: config.DEMO_STAFF_EMAIL,
    staffPassword: secrets.values.DEMO_STAFF_PASSWORD,
    apiKey: secrets.values.DEMO_API_KEY,
  };
  if (process.env.SEED_DEMO !== "0") {
    const seeded = await seedDemoShop(demo);
    if (seeded) console.log(`demo: seeded ${config.DEMO_SHOP} with campaigns, affiliates, clicks and orders`);
    else await syncDemoCredentials(demo);
  }

  const { createApp, listen } = await import("../server/app-server");
  const server = await listen(createApp(), config.PORT, config.HOST);

  // Background jobs (webhook processing, scheduled approvals, erasure) run in
  // a worker process of their own, so they use the machine's other core and
  // never hold up requests. WORKERS=inline runs them in this process instead;
  // WORKERS=external runs none here (separate `npm run worker` processes do).
  const mode = process.env.WORKERS ?? "process";
  let worker: { stop(): Promise<void> } | null = null;
  if (mode === "inline") {
    const { createJobWorker } = await import("../models/jobs/registry.server");
    const inline = createJobWorker();
    const { ensureRecurringJobs } = await import("../models/jobs/recurring-jobs.server");
    await ensureRecurringJobs().catch((error) => console.error("could not queue the recurring jobs:", error));
    inline.start();
    worker = inline;
  } else if (mode !== "external") {
    // Restarted when it dies; ends itself when this process dies (supervise.ts).
    worker = superviseChild({ name: "job worker", args: [...process.execArgv, path.join(__dirname, "worker.ts")] });
  }
  const url = `http://localhost:${config.PORT}`;
  const lines = [
    "",
    `Affiliate & Referral is running at ${url} (standalone, ${config.DATABASE_URL.startsWith("postgres") ? "PostgreSQL" : "SQLite"})`,
    "",
    `  Admin login   ${url}/login`,
    `                e-mail    ${demo.adminEmail}`,
    `                password  ${demo.adminPassword}`,
    `  Staff login   ${url}/staff/login`,
    `                e-mail    ${demo.staffEmail}`,
    `                password  ${demo.staffPassword}`,
    `  Demo API key  ${demo.apiKey}`,
    "",
    secrets.generated.length
      ? `  Generated and stored in ${secrets.file}: ${secrets.generated.join(", ")}`
      : `  Secrets not set in the environment are read from ${secrets.file}`,
    "",
  ];
  console.log(lines.join("\n"));

  const stop = () => {
    void worker?.stop();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
