// Outgoing webhooks: events stored, dispatched and delivered (signed, over
// HTTP to a loopback receiver) by the job queue, against bare signed POSTs
// with the same parallelism (the ratio is what to compare across machines).
// Runs in a child process with its own SQLite database.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchResult } from "./run";
import { benchAppEnv } from "./bench-demo";

const ROOT = path.resolve(__dirname, "../..");
// One at a time, a receiver taking 100 ms per answer would allow 10/s.
const SERIAL_SLOW_PER_SECOND = 10;

export async function webhooksBench(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "webhooks-bench-"));
  try {
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "tests/bench/webhooks-bench-child.ts"],
        {
          cwd: ROOT,
          maxBuffer: 16 * 1024 * 1024,
          env: benchAppEnv(`file:${path.join(dir, "bench.sqlite")}`, {
            // Its receivers are on loopback: the demo may allow that, production may not.
            DEMO: "1",
            WEBHOOKS_ALLOW_PRIVATE: "1",
          }),
        },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    const line = output.split("\n").find((l) => l.startsWith("RESULT "));
    if (!line) throw new Error(`no result in:\n${output}`);
    const r = JSON.parse(line.slice(7)) as { app: number[]; raw: number[]; slowApp: number };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const fmt = (xs: number[]) => xs.map((x) => Math.round(x)).join(", ");
    const ratio = median(r.app) / median(r.raw);
    console.log(`  delivered by the queue: ${fmt(r.app)} webhooks/s (median ${Math.round(median(r.app))})`);
    console.log(`  bare signed POSTs:      ${fmt(r.raw)} /s (median ${Math.round(median(r.raw))})`);
    console.log(`  ratio ${ratio.toFixed(2)}; with a receiver taking 100 ms per answer: ${Math.round(r.slowApp)}/s`);
    // The ratio to bare POSTs is reported, not judged: the queue stores an
    // event, a delivery, an attempt and two jobs per webhook, and the
    // machine's load moves both sides. What is judged: a slow receiver's
    // waits overlap (the lanes) instead of adding up.
    return {
      checks: [
        {
          name: `a 100 ms receiver gets more than one at a time allows (${Math.round(r.slowApp)}/s > ${SERIAL_SLOW_PER_SECOND}/s)`,
          pass: r.slowApp > SERIAL_SLOW_PER_SECOND,
        },
        {
          name: `a 100 ms receiver keeps at least half the throughput of a fast one (${Math.round(r.slowApp)} vs ${Math.round(median(r.app))}/s)`,
          pass: r.slowApp >= 0.5 * median(r.app),
        },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
