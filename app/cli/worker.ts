// `npm run worker`: a job worker process on its own (production runs several
// app processes with WORKERS=external and one or more of these).
import { exitOnStartupError, loadEnvironment } from "./bootstrap";
import { watchParent } from "./supervise";

async function main() {
  loadEnvironment();
  // Nobody waits on a job's answer: its writes may wait longer for the
  // database than a request's (a job that still cannot write is retried).
  process.env.DATABASE_WAIT_MS ??= "30000";
  // Imported after the environment is set: they read it when first used.
  const { runJobWorker } = await import("./worker-runtime");
  const worker = await runJobWorker({ ownProcess: true });
  console.log(`job worker ${worker.id} started`);
  const stop = () => void worker.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Started by `npm start`: the web process gone (even by kill -9) ends this
  // worker, so a restarted app never runs two. A job cut short is taken up
  // again when its lease runs out (job-queue.server.ts).
  watchParent(() => {
    console.error(`job worker ${worker.id}: the web process is gone; stopping`);
    stop();
    setTimeout(() => process.exit(1), 5000).unref();
  });
}

main().catch(exitOnStartupError);
