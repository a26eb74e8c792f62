// `npm run check:money`: the money invariant checker (issue 25) on a
// database: every commission line in at most one payout, a line paid if and
// only if its payout is, a payout equal to its lines, no item sent twice,
// balances equal to what was earned minus what was paid. Exits 1 and lists
// what is wrong when anything is.
//
//   npm run check:money                          # the app's database (DATABASE_URL, else data/app.sqlite)
//   npm run check:money -- --shop demo-store.myshopify.com
//   npm run check:money -- --reconcile           # also pay the payouts PayPal reports paid (then check again)
//   npm run check:money -- --json
import path from "node:path";
import { createDb } from "../db/client.server";
import { checkMoneyInvariants } from "../models/payouts/money-invariants.server";
import { reconcilePaidAfterAll } from "../models/payouts/reconcile-payout.server";

function arg(name: string) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main() {
  const url =
    process.env.DATABASE_URL ||
    `file:${path.join(process.env.DATA_DIR ?? path.resolve(__dirname, "../../data"), "app.sqlite")}`;
  const db = createDb(url);
  try {
    const domain = arg("--shop");
    const shop = domain ? await db.shop.findUnique({ where: { domain }, select: { id: true } }) : null;
    if (domain && !shop) throw new Error(`No shop ${domain} in this database.`);
    const scope = { shopId: shop?.id };
    let violations = await checkMoneyInvariants(db, scope);
    if (process.argv.includes("--reconcile")) {
      const late = violations.filter((v) => v.rule === "paypal_success_not_paid");
      for (const v of late) {
        for (const id of v.ids) {
          const result = await db.$transaction((tx) =>
            reconcilePaidAfterAll(tx, v.shopId, id, { reference: null, actor: "check:money" }),
          );
          console.log(
            `reconciled payout ${id}: ${result.changed ? `paid (overpaid ${result.overpaid})` : "unchanged"}`,
          );
        }
      }
      if (late.length) violations = await checkMoneyInvariants(db, scope);
    }
    if (process.argv.includes("--json")) console.log(JSON.stringify(violations, null, 2));
    else if (violations.length === 0) console.log(`money invariants hold (${domain ?? "every shop"})`);
    else {
      for (const v of violations) {
        const ids = v.ids.slice(0, 10).join(", ") + (v.ids.length > 10 ? `, … (${v.ids.length})` : "");
        console.log(`${v.rule}  shop ${v.shopId}: ${ids}${v.detail ? `  [${v.detail}]` : ""}`);
      }
    }
    process.exitCode = violations.length ? 1 : 0;
  } finally {
    await db.$disconnect();
  }
}

main().catch((error) => {
  // Prisma's messages quote the failing call at length: its last line says what is wrong.
  const text = error instanceof Error ? error.message : String(error);
  console.error(text.trim().split("\n").pop());
  process.exit(2);
});
