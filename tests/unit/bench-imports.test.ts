import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { moduleSpecifiers } from "../support/module-specifiers";

// The benches run under tsx, outside vitest (`npm run bench`, and CI's load
// smoke), and vitest refuses to be loaded that way. A test helper that the
// benches share and that starts importing vitest breaks them while every test
// still passes; it happened twice (waitForHydration, useWebhookReceiver).
// This walks what each bench entry loads at run time and finds vitest.
const ROOT = path.resolve(__dirname, "../..");
const BENCH = path.join(ROOT, "tests/bench");

function resolveModule(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith("~/")) base = path.join(ROOT, "app", specifier.slice(2));
  else return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** The chain of modules from `entry` to one that loads vitest, or null. */
function vitestChain(entry: string): string[] | null {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): string[] | null => {
    if (seen.has(file)) return null;
    seen.add(file);
    for (const specifier of moduleSpecifiers(file, { valuesOnly: true })) {
      if (specifier === "vitest" || specifier.startsWith("vitest/") || specifier.startsWith("@vitest/")) {
        return [...chain, file];
      }
      const next = resolveModule(file, specifier);
      const found = next && /\.tsx?$/.test(next) ? walk(next, [...chain, file]) : null;
      if (found) return found;
    }
    return null;
  };
  return walk(entry, []);
}

const entries = fs
  .readdirSync(BENCH)
  .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
  .map((name) => path.join(BENCH, name));

describe("bench entries load without vitest", () => {
  it.each(entries.map((file) => [path.relative(ROOT, file), file]))("%s", (_name, file) => {
    const chain = vitestChain(file);
    expect(chain?.map((f) => path.relative(ROOT, f)) ?? null).toBeNull();
  });

  it("finds vitest behind a helper (the check can fail)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-imports-"));
    try {
      fs.writeFileSync(path.join(dir, "helper.ts"), 'import { it } from "vitest";\nexport const x = it;\n');
      fs.writeFileSync(path.join(dir, "typed.ts"), 'import type { it } from "vitest";\nexport type T = typeof it;\n');
      fs.writeFileSync(
        path.join(dir, "entry.ts"),
        'import type { T } from "./typed";\nimport { x } from "./helper";\nexport const y: T | typeof x = x;\n',
      );
      fs.writeFileSync(
        path.join(dir, "clean.ts"),
        'import type { T } from "./typed";\nexport const z: T | null = null;\n',
      );
      expect(vitestChain(path.join(dir, "entry.ts"))?.map((f) => path.basename(f))).toEqual(["entry.ts", "helper.ts"]);
      expect(vitestChain(path.join(dir, "clean.ts"))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
