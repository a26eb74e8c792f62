import { createDb } from "~/db/client.server";
import { refreshRollup } from "~/models/dashboard/rollup.server";
async function main() {
  const db = createDb(process.argv[2]!);
  const t = Date.now();
  const n = await db.$transaction((tx) => refreshRollup(tx, "large-shop"), { timeout: 600_000 });
  console.log(n, "hours", Date.now() - t, "ms", await db.dashboardRollupState.findUnique({ where: { shopId: "large-shop" } }));
}
main();
