import { Worker } from "node:worker_threads";

// Checkpoints (copying SQLite's WAL into the database file, with the
// file's fsyncs) run on a helper thread with its own connection: a PASSIVE
// checkpoint every 100 ms, which never blocks a writer. Every connection of
// the app raises SQLite's automatic checkpoint to WAL_AUTOCHECKPOINT_PAGES,
// so a commit checkpoints on its own thread only as a backstop. SQLite's
// default (1,000 pages, ~4 MB) made whichever connection committed past it
// run the checkpoint on its event loop: the job worker's commits and the
// web process's Prisma transactions, whenever the helper was not running
// (it used to start with the first click, so a shop taking orders without
// clicks never had one).
//
// One helper per database file and process, shared by whoever opened the
// file (Prisma's adapter, the click store): it ends with its last user.
// Plain JavaScript evaluated as the thread's source, so it runs the same
// under tsx, vitest and a bundled build.

export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

const SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // another checkpoint is running: the next tick will do
  }
}, 100);
`;

const helpers = new Map<string, { worker: Worker; users: number }>();

/** Starts (or joins) the file's checkpointer; the answer releases this use of it. */
export function joinCheckpointer(file: string): () => Promise<void> {
  let helper = helpers.get(file);
  if (!helper) {
    const worker = new Worker(SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { file, driver: require.resolve("better-sqlite3") },
    });
    worker.on("error", (error) => console.error("[db] checkpointer stopped:", error));
    // An idle helper must not keep a process (a test, a CLI) alive.
    worker.unref();
    helpers.set(file, (helper = { worker, users: 0 }));
  }
  helper.users++;
  const mine = helper;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--mine.users > 0) return;
    if (helpers.get(file) === mine) helpers.delete(file);
    await mine.worker.terminate();
  };
}
