// Summarises a V8 CPU profile written by the vitals bench
// (BENCH_VITALS_PROFILE): self time by source function and by source file,
// mapped back through the build's source maps when the build has them
// (`npx remix build --sourcemap`). Usage:
//   npx tsx tests/bench/cpuprofile-summary.ts <file.cpuprofile> [top=30] [first-ms]
// first-ms: only the samples of the profile's first milliseconds (an
// interaction's own frame, without the navigation or data load it started).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SourceMapConsumer, type RawSourceMap } from "source-map";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function main() {
  const [file, topArg, firstArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: cpuprofile-summary <file.cpuprofile> [top] [first-ms]");
  const top = Number(topArg ?? 30);
  const window = firstArg ? Number(firstArg) : Infinity;
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const self = new Map<number, number>();
  // Counted from the first sample: the profiler may start well before it.
  let at = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (i > 0) at += ms;
    if (at <= window) self.set(id, (self.get(id) ?? 0) + ms);
  });

  const maps = new Map<string, SourceMapConsumer | null>();
  const consumer = async (url: string) => {
    if (maps.has(url)) return maps.get(url)!;
    let found: SourceMapConsumer | null = null;
    try {
      const mapFile = path.join("public", new URL(url).pathname) + ".map";
      if (existsSync(mapFile))
        found = await new SourceMapConsumer(JSON.parse(readFileSync(mapFile, "utf8")) as RawSourceMap);
    } catch {
      found = null;
    }
    maps.set(url, found);
    return found;
  };

  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (!ms) continue;
    total += ms;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    let where = url ? `${url}:${lineNumber + 1}` : "(native)";
    let name = functionName || "(anonymous)";
    let source = url || `(${functionName})`;
    // (A script's own top level has no line: -1.)
    const map = url.startsWith("http") && lineNumber >= 0 ? await consumer(url) : null;
    if (map) {
      const original = map.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
      if (original.source) {
        source = original.source.replace(/^.*node_modules\//, "");
        where = `${source}:${original.line}`;
        name = original.name ?? name;
      }
    }
    byFunction.set(`${name} ${where}`, (byFunction.get(`${name} ${where}`) ?? 0) + ms);
    byFile.set(source, (byFile.get(source) ?? 0) + ms);
  }
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
  };
  console.log(`total sampled ${total.toFixed(1)} ms`);
  print("self time by file", byFile);
  print("self time by function", byFunction);
}

void main();
