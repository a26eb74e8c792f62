import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The lint rule that keeps routes away from the raw database client and from
// doing their own authentication: run on sample route sources, it must flag
// each way around the door and accept the door itself.
const ROOT = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

async function problems(source: string, file = "app/routes/$role.sample.tsx") {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

// ESLint with type information takes seconds to start; on a busy machine
// more than vitest's default 5 s.
describe("route import rules", { timeout: 60_000 }, () => {
  it.each([
    ['import { getDb } from "~/db.server";\nexport const x = getDb;'],
    ['import { createDb } from "~/db/client.server";\nexport const x = createDb;'],
    ['import { shopDb } from "~/db/shop-db.server";\nexport const x = shopDb;'],
    ['import { PrismaClient } from "~/db/generated/sqlite";\nexport const x = PrismaClient;'],
    ['import { getDb } from "../db.server";\nexport const x = getDb;'],
    ['import { requireMerchant } from "~/models/auth/require-merchant.server";\nexport const x = requireMerchant;'],
    [
      'import { requireAffiliate } from "~/models/affiliate-account/affiliate-session.server";\nexport const x = requireAffiliate;',
    ],
  ])("refuses a route that reaches around the door: %s", async (source) => {
    expect(await problems(source)).toHaveLength(1);
  });

  it("accepts the door, Prisma's types and the same imports outside routes", async () => {
    expect(
      await problems(
        'import { merchantRoute } from "~/door/merchant-route.server";\nimport type { Shop } from "~/db/generated/sqlite";\nexport const x = merchantRoute;\nexport type S = Shop;',
      ),
    ).toEqual([]);
    expect(
      await problems('import { getDb } from "../db.server";\nexport const x = getDb;', "app/models/sample.server.ts"),
    ).toEqual([]);
  });
});
