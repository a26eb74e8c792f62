import http from "node:http";
import type { AddressInfo } from "node:net";

// What every job worker runs beside its job loop, in its own process (`npm
// run worker`, or the one `npm start` supervises) or inside the web process
// (WORKERS=inline): the heartbeat /readyz reads, today's retention run, and
// its metrics: handed to the web process that supervises it (asked over
// their IPC channel), or served on METRICS_PORT by a worker on its own.

export interface RunningWorker {
  id: string;
  stop(): Promise<void>;
}

export const METRICS_REQUEST = "metrics?";
/** The web process queued jobs (a stored webhook): look now instead of at the next poll. */
export const JOBS_ENQUEUED = "jobs.enqueued";

export async function runJobWorker(options: { ownProcess: boolean }): Promise<RunningWorker> {
  const { getConfig } = await import("../config.server");
  const { getDb } = await import("../db.server");
  const { createJobWorker } = await import("../worker/job-registry.server");
  const { startHeartbeat } = await import("../models/ops/worker-heartbeat.server");
  const { scheduleRetention } = await import("../models/ops/retention.server");
  const { metricsJson, startProcessMetrics } = await import("../models/ops/metrics.server");
  const config = getConfig();
  const db = getDb();

  // The longest hold of SQLite's write lock per job type goes to the log when a worker of its own stops (the load bench reads it).
  const worker = createJobWorker({ reportHolds: options.ownProcess, pollMs: config.JOB_POLL_MS });
  // The chains of jobs that queue their own next run (recurring-jobs.server.ts).
  const { ensureRecurringJobs } = await import("../worker/recurring-jobs.server");
  await ensureRecurringJobs().catch((error: Error) =>
    console.error(`[worker] could not queue the recurring jobs: ${error.message}`),
  );
  worker.start();
  const heartbeat = startHeartbeat(db, worker.id);
  await scheduleRetention(db, config.RETENTION_DAYS).catch((error: Error) =>
    console.error(`[worker] could not queue the retention run: ${error.message}`),
  );

  let metricsServer: http.Server | null = null;
  if (options.ownProcess) {
    startProcessMetrics("worker");
    // Supervised by the web process: it asks, this answers.
    process.on("message", (message: { type?: string; id?: number }) => {
      if (message?.type === JOBS_ENQUEUED) worker.kick();
      if (message?.type !== METRICS_REQUEST) return;
      void metricsJson().then((metrics) => process.send?.({ type: "metrics", id: message.id, metrics }));
    });
    if (config.METRICS_PORT) metricsServer = await serveWorkerMetrics(config.METRICS_PORT, config.METRICS_TOKEN);
  }
  return {
    id: worker.id,
    async stop() {
      metricsServer?.close();
      await worker.stop();
      await heartbeat.stop();
    },
  };
}

/** /healthz and /metrics of a worker on its own (no web process to ask it). */
async function serveWorkerMetrics(port: number, token: string | undefined) {
  const { createOpsHandler } = await import("../server/ops-handler");
  const ops = createOpsHandler({ readiness: false, token });
  const server = http.createServer((req, res) => {
    if (!ops.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, process.env.HOST ?? "0.0.0.0", () => resolve());
  });
  console.log(`job worker metrics on port ${(server.address() as AddressInfo).port} (/healthz, /metrics)`);
  return server;
}
