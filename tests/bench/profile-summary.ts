// Where a page's CPU goes, from V8 CPU profiles of its server
// (BENCH_CPU_PROFILE, see page-profile.ts), per document: self time by
// package (node_modules/<name>), by function in the app's server bundle
// (build/index.js) or by source file (the twin, loaded from source), plus
// the inclusive time of the stages every Remix document goes through. Given
// two profiles (the app's page and its twin's), prints them side by side with
// the difference: the profile of the gap.
//   npx tsx tests/bench/profile-summary.ts app.cpuprofile:DOCS [twin.cpuprofile:DOCS] [--top 25]
// DOCS: the documents served while profiling (page-profile.ts prints it).
import { readFileSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

// Inclusive stages: a sample counts for a stage when one of these functions
// is on its stack (each once per sample).
const STAGES: [label: string, test: (fn: string, where: string) => boolean][] = [
  // React's server renderer is minified: any of its frames on the stack.
  ["render (react-dom on the stack)", (_fn, where) => where === "react-dom"],
  // Loaders continue after awaits with a fresh stack: their first slice only.
  ["loaders, to their first await", (fn) => fn === "callRouteLoader"],
  ["Prisma client (generated client on the stack)", (_fn, where) => where.startsWith("app/db/generated/")],
  ["SQLite driver", (_fn, where) => where === "better-sqlite3"],
  ["JSON (stringify/parse)", (fn) => fn === "stringify" || fn === "parse"],
  ["garbage collector", (fn) => fn === "(garbage collector)"],
];

const ROOT = path.resolve(__dirname, "../..");

function whereOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : `(native) ${functionName || "(anonymous)"}`;
  const file = url.replace(/^file:\/\//, "");
  const nm = file.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = file.slice(nm + 14).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const rel = path.relative(ROOT, file);
  if (rel === path.join("build", "index.js")) return `app bundle: ${functionName || "(anonymous)"}`;
  if (rel.startsWith("..") || file.startsWith("node:")) return `node: ${file.replace(/^node:/, "")}`;
  return rel;
}

function summarize(file: string, docs: number) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const stages = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") return;
    busy += us;
    // A native function's time goes to the code that called it (V8 names
    // the same SQLite call "Statement" in one process and "prepare" in another).
    let owner: ProfileNode = node;
    while (!owner.callFrame.url && !owner.callFrame.functionName.startsWith("(") && parent.has(owner.id))
      owner = byId.get(parent.get(owner.id)!)!;
    const where = whereOf(owner.callFrame.url, owner.callFrame.functionName);
    self.set(where, (self.get(where) ?? 0) + us);
    const hit = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const w = whereOf(frame.url, frame.functionName);
      for (const [label, test] of STAGES) if (test(frame.functionName, w)) hit.add(label);
    }
    for (const label of hit) stages.set(label, (stages.get(label) ?? 0) + us);
  });
  const perDoc = (us: number) => us / 1000 / docs;
  return { busy: perDoc(busy), self: mapValues(self, perDoc), stages: mapValues(stages, perDoc) };
}

function mapValues(m: Map<string, number>, f: (v: number) => number) {
  return new Map([...m].map(([k, v]) => [k, f(v)]));
}

function main() {
  const args = process.argv.slice(2);
  const topAt = args.indexOf("--top");
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
  const inputs = args.filter((a, i) => !a.startsWith("--") && i !== topAt + 1 - (topAt >= 0 ? 0 : 1_000));
  const runs = inputs.map((input) => {
    const at = input.lastIndexOf(":");
    if (at < 0) throw new Error(`${input}: give the documents served, file.cpuprofile:DOCS`);
    return { name: path.basename(input.slice(0, at)), ...summarize(input.slice(0, at), Number(input.slice(at + 1))) };
  });
  const [a, b] = runs;
  if (!a) throw new Error("usage: profile-summary.ts app.cpuprofile:DOCS [twin.cpuprofile:DOCS]");
  const ms = (v: number | undefined) => (v === undefined ? "" : v.toFixed(2)).padStart(8);
  const head = `${"ms of CPU per document".padEnd(56)} ${a.name.slice(0, 8).padStart(8)}${b ? ` ${b.name.slice(0, 8).padStart(8)} ${"gap".padStart(8)}` : ""}`;
  console.log(head);
  console.log(`${"busy (all but idle)".padEnd(56)} ${ms(a.busy)}${b ? ` ${ms(b.busy)} ${ms(a.busy - b.busy)}` : ""}`);
  console.log("stages (inclusive):");
  for (const [label] of STAGES) {
    const x = a.stages.get(label) ?? 0;
    const y = b?.stages.get(label) ?? 0;
    console.log(`  ${label.padEnd(54)} ${ms(x)}${b ? ` ${ms(y)} ${ms(x - y)}` : ""}`);
  }
  console.log(`self time, top ${top}${b ? " by gap" : ""}:`);
  const keys = new Set([...a.self.keys(), ...(b?.self.keys() ?? [])]);
  const rows = [...keys].map((k) => ({ k, x: a.self.get(k) ?? 0, y: b?.self.get(k) ?? 0 }));
  rows.sort((r, s) => (b ? s.x - s.y - (r.x - r.y) : s.x - r.x));
  for (const r of rows.slice(0, top))
    console.log(`  ${r.k.slice(0, 54).padEnd(54)} ${ms(r.x)}${b ? ` ${ms(r.y)} ${ms(r.x - r.y)}` : ""}`);
}

main();
