// `npm start` / `npm run serve`: the app on SQLite (or PostgreSQL via
// DATABASE_URL), in the mode the environment chooses (app/lib/app-mode.ts).
// Both modes apply the migrations, serve the app and run the job worker; the
// demo also fills in generated secrets, starts the store simulator, seeds
// the demo shop on the first start and prints its logins.
import { existsSync } from "node:fs";
import path from "node:path";
import { modeLine } from "../lib/app-mode";
import { exitOnStartupError, loadEnvironment, StartupRefused, type Environment } from "./bootstrap";
import { superviseChild } from "./supervise";

// How long a stop waits for the worker's job in hand and open requests.
const STOP_GRACE_MS = 10_000;

async function main() {
  const environment = loadEnvironment();
  // `npm run serve` serves what `npm run build` made and builds nothing itself.
  if (!existsSync(path.join(environment.root, "build/index.js")))
    throw new StartupRefused(
      "There is no build to serve: run `npm run build` first (`npm start` builds, then serves).",
    );
  if (environment.mode === "demo") await (await import("../simulator/demo-store")).startDemoStore(environment.dataDir);

  const { getConfig } = await import("../config.server");
  const config = getConfig();
  const { migrate } = await import("../db/migrate.server");
  const result = await migrate(config.DATABASE_URL);
  if (result.applied.length)
    console.log(`database: applied ${result.applied.length} migration(s): ${result.applied.join(", ")}`);

  const demo = environment.mode === "demo" ? await seedDemo(environment, config) : null;

  const { addMetricsSource } = await import("../server/ops-handler");
  const { createApp, listen } = await import("../server/app-server");
  const server = await listen(createApp(), config.PORT, config.HOST);

  // Background jobs (webhook processing, scheduled approvals, erasure) run in
  // a worker process of their own, so they use the machine's other core and
  // never hold up requests. WORKERS=inline runs them in this process instead;
  // WORKERS=external runs none here (separate `npm run worker` processes do).
  const workers = process.env.WORKERS ?? "process";
  let worker: { stop(): Promise<void> } | null = null;
  if (workers === "inline") {
    const { runJobWorker } = await import("./worker-runtime");
    worker = await runJobWorker({ ownProcess: false });
  } else if (workers !== "external") {
    // Restarted when it dies; ends itself when this process dies (supervise.ts).
    const child = superviseChild({
      name: "job worker",
      args: [...process.execArgv, path.join(__dirname, "worker.ts")],
    });
    const { JOBS_ENQUEUED, METRICS_REQUEST } = await import("./worker-runtime");
    addMetricsSource(() => child.ask(METRICS_REQUEST, "metrics"));
    // A stored webhook is worked on at once, not at the worker's next poll
    // (up to half a second later: issue 33's orders end to end).
    const { onJobsEnqueued } = await import("../db/job-queue.server");
    onJobsEnqueued(() => child.tell(JOBS_ENQUEUED));
    worker = child;
  }
  const database = config.DATABASE_URL.startsWith("postgres") ? "PostgreSQL" : "SQLite";
  console.log(modeLine(environment.mode, { database, smtp: Boolean(config.SMTP_URL), workers }));
  if (environment.mode === "production")
    console.log(`Affiliate & Referral is running at ${config.appUrl} (port ${config.PORT})`);
  else printDemoLogins(environment, config.PORT, database, demo!);

  // The worker finishes the job in hand and logs its write-lock holds before
  // this process exits: exiting first orphaned it (it ran on until it noticed)
  // and its last lines came after the exit, or not at all.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    void Promise.allSettled([worker?.stop(), closed]).then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

type DemoLogins = Awaited<ReturnType<typeof seedDemo>>;

async function seedDemo(
  environment: Extract<Environment, { mode: "demo" }>,
  config: { DEMO_SHOP: string; DEMO_ADMIN_EMAIL: string; DEMO_STAFF_EMAIL: string; SEED_DEMO: string },
) {
  const { secrets } = environment;
  const demo = {
    shopDomain: config.DEMO_SHOP,
    adminEmail: config.DEMO_ADMIN_EMAIL,
    adminPassword: secrets.values.DEMO_ADMIN_PASSWORD,
    staffEmail: config.DEMO_STAFF_EMAIL,
    staffPassword: secrets.values.DEMO_STAFF_PASSWORD,
    apiKey: secrets.values.DEMO_API_KEY,
  };
  if (config.SEED_DEMO !== "0") {
    const { seedDemoShop, syncDemoCredentials } = await import("../models/demo/seed-demo.server");
    const seeded = await seedDemoShop(demo);
    if (seeded) console.log(`demo: seeded ${config.DEMO_SHOP} with campaigns, affiliates, clicks and orders`);
    else await syncDemoCredentials(demo);
  }
  return demo;
}

function printDemoLogins(
  environment: Extract<Environment, { mode: "demo" }>,
  port: number,
  database: string,
  demo: DemoLogins,
) {
  const { secrets } = environment;
  const url = `http://localhost:${port}`;
  const lines = [
    "",
    `Affiliate & Referral is running at ${url} (standalone, ${database})`,
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
}

main().catch(exitOnStartupError);
