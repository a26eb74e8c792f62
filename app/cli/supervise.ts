import { spawn, type ChildProcess } from "node:child_process";

// The web process supervises the job worker it starts (docs/decisions/016):
// - the worker dying, however (kill -9 included), is logged and the worker
//   started again after a pause that doubles with each quick death (1 s up
//   to 30 s; back to 1 s once a worker has lived a minute), while the web
//   process keeps serving;
// - the web process dying, however, ends the worker: the worker is started
//   with an IPC channel and exits when that channel closes, which the
//   operating system does when the parent dies, even by kill -9 (see
//   watchParent, which also polls the parent's pid as a second signal).

export interface SupervisedChild {
  /** Stops the child (SIGTERM) and restarts it no more. */
  stop(): Promise<void>;
  /** The running child's pid (undefined between a death and its restart). */
  pid(): number | undefined;
  /**
   * Sends `{type, id}` over the IPC channel and resolves with the `answer`
   * field of the child's `{id, ...}` reply; null when no child runs or none
   * answers within the time limit.
   */
  ask<T>(type: string, answer: string, timeoutMs?: number): Promise<T | null>;
  /** Sends `{type}` over the IPC channel, expecting no answer; nothing when no child runs. */
  tell(type: string): void;
}

export interface SuperviseOptions {
  name: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** A child that lived this long is healthy: the next restart is quick again. */
  healthyAfterMs?: number;
  log?: (line: string) => void;
}

export function superviseChild(options: SuperviseOptions): SupervisedChild {
  const minDelay = options.minDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const healthyAfter = options.healthyAfterMs ?? 60_000;
  const log = options.log ?? ((line: string) => console.error(line));
  let child: ChildProcess | null = null;
  let stopping = false;
  let delay = minDelay;
  let restartTimer: NodeJS.Timeout | null = null;

  const start = () => {
    restartTimer = null;
    const startedAt = Date.now();
    const current = spawn(process.execPath, options.args, {
      // The IPC channel is how the child notices this process is gone.
      stdio: ["inherit", "inherit", "inherit", "ipc"],
      env: options.env ?? process.env,
    });
    child = current;
    current.on("exit", (code, signal) => {
      if (child === current) child = null;
      if (stopping) return;
      if (Date.now() - startedAt >= healthyAfter) delay = minDelay;
      log(`${options.name} exited (${signal ?? `code ${code}`}); starting it again in ${Math.round(delay / 1000)} s`);
      restartTimer = setTimeout(start, delay);
      delay = Math.min(maxDelay, delay * 2);
    });
    current.on("error", (error) => log(`${options.name} could not be started: ${error.message}`));
  };
  start();

  let asked = 0;
  return {
    pid: () => child?.pid,
    ask<T>(type: string, answer: string, timeoutMs = 2000) {
      const current = child;
      if (!current?.connected) return Promise.resolve(null);
      const id = ++asked;
      return new Promise<T | null>((resolve) => {
        const done = (value: T | null) => {
          clearTimeout(timer);
          current.off("message", listen);
          resolve(value);
        };
        const listen = (message: Record<string, unknown>) => {
          if (message?.id === id) done((message[answer] as T) ?? null);
        };
        const timer = setTimeout(() => done(null), timeoutMs);
        current.on("message", listen);
        current.send({ type, id }, (error) => error && done(null));
      });
    },
    tell(type: string) {
      // A message lost to a child dying right now is one its next poll makes up for.
      if (child?.connected) child.send({ type }, () => {});
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        current.once("exit", () => resolve());
        current.kill("SIGTERM");
      });
    },
  };
}

/**
 * In a child started by superviseChild: calls `onOrphaned` once when the
 * parent is gone (its IPC channel closed, or this process was re-parented).
 * Does nothing in a process started on its own (`npm run worker`).
 */
export function watchParent(onOrphaned: () => void, pollMs = 1000) {
  if (!process.send) return;
  const parent = process.ppid;
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    clearInterval(poll);
    onOrphaned();
  };
  process.once("disconnect", fire);
  const poll = setInterval(() => {
    if (process.ppid !== parent) fire();
  }, pollMs);
  poll.unref();
  // The channel must not keep this process alive on its own.
  process.channel?.unref();
}
