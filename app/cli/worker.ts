// `npm run worker`: a job worker process on its own (production runs several
// app processes with WORKERS=external and one or more of these).
import { loadEnvironment } from "./bootstrap";

async function main() {
  loadEnvironment();
  // Imported after the environment is set: they read it when first used.
  const { createJobWorker } = await import("../models/jobs/registry.server");
  const worker = createJobWorker();
  worker.start();
  console.log(`job worker ${worker.id} started`);
  const stop = () => void worker.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
