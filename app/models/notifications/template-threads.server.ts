import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ENGINE_OPTIONS, finishParts, type RenderedParts, type TemplateProblem } from "./liquid-template";
import { noteRender } from "../../db/write-lock-stats";

// A merchant's Liquid runs off the request thread: in a small pool of worker
// threads, each with a hard wall-clock limit, a cap on what a render may
// produce and a lower heap limit than the process. liquidjs's own limits
// (render steps, memory) count work, not time: a loop template took ~2 s of
// the web process's only thread before they stopped it, and a dozen such
// previews held every other shop's requests (clicks too) for seconds. Here
// the thread is terminated when the time is up, and the event loop never
// waits for a render. The job worker renders real e-mails the same way.
//
// The worker's source is plain JavaScript evaluated as its script (as the
// click store's checkpointer): it runs the same under tsx, vitest and a
// bundled build. It builds the same engines from ENGINE_OPTIONS.

/**
 * Wall-clock limit of a check, from the moment a thread starts it: the
 * merchant's new text (save, preview and test send check it first).
 */
export const TEMPLATE_TIME_LIMIT_MS = 150;
/**
 * Wall-clock limit of a render: text that passed its check (a saved or a
 * default template) with real values. What makes such a render slow is a
 * busy machine, not the template: at 150 ms a staff invite's default
 * template failed while two browser test files shared the two cores.
 */
export const TEMPLATE_RENDER_TIME_LIMIT_MS = 1_000;
/** Characters a render may produce (subject and body together). */
export const TEMPLATE_OUTPUT_LIMIT = 256_000;
// A thread's heap: far below the process's, ample for any e-mail.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8, stackSizeMb: 2 };
// Tasks waiting for a thread past which the editor's checks (the first step
// of its save, preview and test) are told to come back; real e-mails (the
// job worker's renders) always wait their turn.
const MAX_WAITING = 64;

export type TemplateLimit = "time" | "output" | "memory" | "busy";

/** A render stopped by a limit (or refused because every thread is busy). */
export class TemplateLimitError extends Error {
  constructor(
    readonly limit: TemplateLimit,
    /** The time limit it ran into. */
    readonly ms = TEMPLATE_TIME_LIMIT_MS,
  ) {
    super(
      limit === "time"
        ? `The template took longer than ${ms} ms to render.`
        : limit === "busy"
          ? "Every template thread is busy."
          : "The template's output is too large.",
    );
    this.name = "TemplateLimitError";
  }

  /** Out of time or of threads: a busy machine, not a broken template (asksToRetryLater). */
  get retryLater(): boolean {
    return this.limit !== "output";
  }
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { Liquid } = require(workerData.liquid);
const engines = {
  html: new Liquid(workerData.options.html),
  text: new Liquid(workerData.options.text),
  strict: new Liquid(workerData.options.strict),
};
// Parsed templates per engine and source: a bulk send renders one template
// thousands of times, and parsing was most of a render's cost.
const parsedCache = new Map();
function parsed(kind, source) {
  const id = kind + "\\n" + source;
  let templates = parsedCache.get(id);
  if (!templates) {
    templates = engines[kind].parse(source);
    if (parsedCache.size >= 500) parsedCache.delete(parsedCache.keys().next().value);
    parsedCache.set(id, templates);
  }
  return templates;
}
function failure(error) {
  const position = error && error.token && typeof error.token.getPosition === "function" ? error.token.getPosition() : null;
  return { message: String((error && error.message) || error), line: position ? position[0] : null };
}
parentPort.on("message", async (task) => {
  try {
    if (task.op === "check") {
      let problem = null;
      try {
        const out = await engines.strict.render(engines.strict.parse(task.source), task.values);
        if (out.length > workerData.maxOutput) return parentPort.postMessage({ id: task.id, limit: "output" });
      } catch (error) {
        problem = failure(error);
      }
      return parentPort.postMessage({ id: task.id, problem });
    }
    const [subject, html] = await Promise.all([
      engines.text.render(parsed("text", task.subject), task.values),
      engines.html.render(parsed("html", task.body), task.values),
    ]);
    if (subject.length + html.length > workerData.maxOutput)
      return parentPort.postMessage({ id: task.id, limit: "output" });
    parentPort.postMessage({ id: task.id, subject, html });
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: failure(error) });
  }
});
parentPort.postMessage({ ready: true });
`;

type Job =
  | { op: "check"; source: string; values: Record<string, unknown> }
  | { op: "render"; subject: string; body: string; values: Record<string, unknown> };

interface Reply {
  id?: number;
  ready?: boolean;
  limit?: "output";
  problem?: TemplateProblem | null;
  error?: TemplateProblem;
  subject?: string;
  html?: string;
}

interface Pending {
  job: Job;
  resolve: (reply: Reply) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running: (Pending & { id: number; timer: NodeJS.Timeout }) | null;
}

const waiting: Pending[] = [];
const slots: Slot[] = [];
let nextId = 1;

// One core stays for the event loop: two threads on a two-core machine
// would leave the requests none while two loops run out their time. Read
// once: it is a system call, and dispatch runs for every render.
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));

function startSlot(): Slot {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    resourceLimits: RESOURCE_LIMITS,
    workerData: { liquid: require.resolve("liquidjs"), options: ENGINE_OPTIONS, maxOutput: TEMPLATE_OUTPUT_LIMIT },
  });
  // An idle pool must not keep a process (a test, a CLI) alive.
  worker.unref();
  const slot: Slot = { worker, ready: false, running: null };
  worker.on("message", (reply: Reply) => {
    if (reply.ready) {
      slot.ready = true;
      return dispatch();
    }
    const run = slot.running;
    if (!run || run.id !== reply.id) return;
    clearTimeout(run.timer);
    slot.running = null;
    run.resolve(reply);
    dispatch();
  });
  // A thread past its heap limit dies with an error: that render was too big.
  worker.on("error", (error) =>
    replace(slot, (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : error),
  );
  worker.on("exit", () => replace(slot, "memory"));
  return slot;
}

/** Ends a slot's thread (if it still runs) and starts a fresh one; its task fails with `reason`. */
function replace(slot: Slot, reason: TemplateLimit | unknown, ms?: number) {
  const index = slots.indexOf(slot);
  if (index === -1) return;
  slots.splice(index, 1);
  const run = slot.running;
  slot.running = null;
  if (run) {
    clearTimeout(run.timer);
    run.reject(typeof reason === "string" ? new TemplateLimitError(reason as TemplateLimit, ms) : reason);
  }
  slot.worker.removeAllListeners("exit");
  void slot.worker.terminate();
  if (!slot.ready) {
    // It never started (its script failed): say so to whoever waits rather
    // than start threads in a loop; the next render tries again.
    for (const pending of waiting.splice(0))
      pending.reject(reason instanceof Error ? reason : new Error(String(reason)));
    return;
  }
  slots.push(startSlot());
  dispatch();
}

function dispatch() {
  while (slots.length < POOL_SIZE) slots.push(startSlot());
  for (const slot of slots) {
    if (!waiting.length) return;
    if (!slot.ready || slot.running) continue;
    const pending = waiting.shift()!;
    const id = nextId++;
    // The clock starts when a thread takes the task: waiting for one is not
    // the template's time.
    const ms = pending.job.op === "check" ? TEMPLATE_TIME_LIMIT_MS : TEMPLATE_RENDER_TIME_LIMIT_MS;
    const timer = setTimeout(() => replace(slot, "time", ms), ms);
    slot.running = { ...pending, id, timer };
    slot.worker.postMessage({ id, ...pending.job });
  }
}

function run(job: Job): Promise<Reply> {
  if (job.op === "check" && waiting.length >= MAX_WAITING) return Promise.reject(new TemplateLimitError("busy"));
  return new Promise((resolve, reject) => {
    waiting.push({ job, resolve, reject });
    dispatch();
  });
}

function renderError(problem: TemplateProblem): Error {
  return new Error(problem.message);
}

/**
 * Why a template cannot be saved (parse error or unknown variable, with its
 * line), or null; rejects with TemplateLimitError when a limit stops it.
 */
export async function checkTemplateInThread(
  source: string,
  sample: Record<string, unknown>,
): Promise<TemplateProblem | null> {
  const reply = await run({ op: "check", source, values: sample });
  if (reply.limit) throw new TemplateLimitError(reply.limit);
  if (reply.error) throw renderError(reply.error);
  return reply.problem ?? null;
}

/** renderTemplate (liquid-template.ts) in a thread, with its limits. */
export async function renderTemplateInThread(
  subject: string,
  body: string,
  values: Record<string, unknown>,
): Promise<RenderedParts> {
  noteRender();
  const reply = await run({ op: "render", subject, body, values });
  if (reply.limit) throw new TemplateLimitError(reply.limit);
  if (reply.error) throw renderError(reply.error);
  return finishParts(reply.subject ?? "", reply.html ?? "");
}

/** Ends the pool's threads (tests; a process that is about to exit needs nothing). */
export async function stopTemplateThreads() {
  const ending = slots.splice(0);
  for (const slot of ending) {
    slot.worker.removeAllListeners("exit");
    slot.running?.reject(new TemplateLimitError("busy"));
    if (slot.running) clearTimeout(slot.running.timer);
  }
  await Promise.all(ending.map((slot) => slot.worker.terminate()));
}
