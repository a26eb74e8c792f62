import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The lint rules that keep app/models below the composition root (app/worker)
// and keep the jobs/events kernel free of domains: run on sample sources,
// each must flag the import that breaks the layering and accept the rest.
const ROOT = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

async function problems(source: string, file: string) {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

// The first lint of a run loads the type-aware config and the import resolver (seconds on a busy machine).
describe("layer import rules", { timeout: 60_000 }, () => {
  it.each([
    ['import { JOBS } from "~/worker/job-registry.server";\nexport const x = JOBS;', "app/models/sample/a.server.ts"],
    [
      'import { JOBS } from "../../worker/job-registry.server";\nexport const x = JOBS;',
      "app/models/sample/a.server.ts",
    ],
    ['import { x } from "../payouts/payable-balance";\nexport const y = x;', "app/models/jobs/sample.server.ts"],
    ['import { x } from "~/models/notifications/catalogue";\nexport const y = x;', "app/models/events/sample.ts"],
    ['import { x } from "../api/schemas";\nexport const y = x;', "app/models/campaigns/sample.ts"],
    ['import { x } from "~/models/api/serializers";\nexport const y = x;', "app/models/payouts/sample.server.ts"],
  ])("refuses %s in %s", async (source, file) => {
    expect(await problems(source, file)).toHaveLength(1);
  });

  it("accepts the kernel's own imports, storage, and the worker importing domains", async () => {
    expect(
      await problems(
        'import { JOB_PAYLOADS } from "../jobs/job-payloads";\nimport type { Tx } from "../../db/transaction";\nexport const x = JOB_PAYLOADS;\nexport type T = Tx;',
        "app/models/events/sample.server.ts",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'import { runRetention } from "../models/ops/retention.server";\nexport const x = runRetention;',
        "app/worker/sample.server.ts",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'import { enqueueJob } from "../jobs/enqueue.server";\nexport const x = enqueueJob;',
        "app/models/payouts/sample.server.ts",
      ),
    ).toEqual([]);
    expect(
      await problems('import { x } from "./schemas";\nexport const y = x;', "app/models/api/sample.server.ts"),
    ).toEqual([]);
  });
});
