import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { parseDatabaseUrl } from "~/db/database-url";
import { shopDb } from "~/db/shop-db.server";
import { listPayouts } from "~/models/api/payouts.server";
import { payoutListQuerySchema } from "~/models/api/payout-schemas";
import { listSales } from "~/models/api/sales.server";
import { saleListQuerySchema } from "~/models/api/schemas";
import { listBatchesInProgress, listBelowMinimum, listPayoutsPage } from "~/models/payouts/payouts-list.server";
import { payoutListParamsSchema } from "~/models/payouts/payout-list-query";
import { listSalesPage } from "~/models/sales/sales-list.server";
import { saleListParamsSchema } from "~/models/sales/sale-list-query";
import { payoutLineCounts } from "~/models/payouts/payout-line-counts.server";
import { refreshPendingPayouts } from "~/models/payouts/refresh-pending-payouts.server";
import { createPayoutBatch } from "~/models/payouts/create-payout-batch.server";
import { ingestWebhook } from "~/db/webhook-store.server";
import { drainJobs } from "~/worker/job-registry.server";
import { fixtureWith, orderStatusUrl } from "../support/webhooks";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

applyTestEnv();
const database = useTestDatabase();
const onPostgres = parseDatabaseUrl(process.env.TEST_DATABASE_URL ?? "file:x").provider === "postgresql";

interface Captured {
  sql: string;
  args: unknown[];
}

/**
 * The statements `run` sends to SQLite, with their arguments. Statements are
 * prepared once per connection (sqlite-statement-cache.server.ts,
 * bulk-sql.server.ts), so each run is caught where it steps: the statement
 * methods, which both paths call with their arguments.
 */
async function statementsOf(run: () => Promise<unknown>, kinds = /^\s*SELECT/i): Promise<Captured[]> {
  const seen: Captured[] = [];
  const probe = new Database(":memory:");
  type Step = (this: Database.Statement, ...args: unknown[]) => unknown;
  const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<"all" | "get" | "run", Step>;
  probe.close();
  const methods = (["all", "get", "run"] as const).map((name) => [name, proto[name]] as const);
  for (const [name, step] of methods)
    proto[name] = function (this: Database.Statement, ...args: unknown[]) {
      if (args.length > 0 && kinds.test(this.source)) seen.push({ sql: this.source, args: args.flat() });
      return step.apply(this, args);
    };
  try {
    await run();
  } finally {
    for (const [name, step] of methods) proto[name] = step;
  }
  return seen;
}

function plansOf(statements: Captured[]) {
  const target = parseDatabaseUrl(database.current().url);
  if (target.provider !== "sqlite") throw new Error("SQLite only");
  const reader = new Database(target.file, { readonly: true });
  try {
    return statements.map((s) => ({
      sql: s.sql,
      plan: (reader.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...(s.args as never[])) as { detail: string }[])
        .map((r) => r.detail)
        .join(" | "),
    }));
  } finally {
    reader.close();
  }
}

/**
 * What makes a list's query cost grow with the whole table instead of the
 * page: a full scan, a materialized subquery (Prisma's _count groups every
 * row first), a sort of every matching row for a page (an ORDER BY the index
 * does not give), or a sum over the order lines that reads each row instead
 * of one index.
 */
function problemsOf(sql: string, plan: string) {
  const problems: string[] = [];
  if (/\bSCAN\b/.test(plan)) problems.push("scans a table");
  if (/MATERIALIZE/.test(plan)) problems.push("materializes a subquery");
  if (/USE TEMP B-TREE FOR ORDER BY/.test(plan) && !/ORDER BY (SUM|COUNT)\(/.test(sql))
    problems.push("sorts every matching row");
  if (/(SUM|COUNT)\(/.test(sql) && /SEARCH main\.Commission USING INDEX/.test(plan))
    problems.push("sums commission lines row by row (no covering index)");
  return problems;
}

// The lists the load bench reloads all the time (issue 26): the Payouts
// Pending tab (its page and the balances below the minimum), the Processing
// tab's batches, the admin's sales list and the REST API's sales and payouts.
// On SQLite each query blocks the web process while it runs, so one whose cost
// grows with the shop's history slows every request.
describe("list queries read what the page needs, through an index", () => {
  it.skipIf(onPostgres)("no scan, no materialized count, no sort of every row", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    await buildAffiliate(shop.id, campaign.id);
    const db = shopDb(getDb(), shop.id);
    const loaders: [string, () => Promise<unknown>][] = [
      ["payouts below the minimum", () => listBelowMinimum(db)],
      ["payout batches in progress", () => listBatchesInProgress(db)],
      ["payouts list", () => listPayoutsPage(db, "UTC", payoutListParamsSchema.parse({ status: "pending" }))],
      ["sales list", () => listSalesPage(db, "UTC", saleListParamsSchema.parse({ status: "pending" }))],
      ["REST sales (pending)", () => listSales(db, saleListQuerySchema.parse({ status: "pending", limit: "5" }))],
      ["REST sales (all)", () => listSales(db, saleListQuerySchema.parse({ limit: "5" }))],
      ["REST payouts", () => listPayouts(db, payoutListQuerySchema.parse({ status: "pending", limit: "5" }))],
    ];
    const found: string[] = [];
    for (const [name, run] of loaders) {
      const statements = await statementsOf(run);
      expect(statements.length, name).toBeGreaterThan(0);
      for (const { sql, plan } of plansOf(statements))
        for (const problem of problemsOf(sql, plan)) found.push(`${name}: ${problem}\n  ${sql}\n  => ${plan}`);
    }
    expect(found).toEqual([]);
  });
});

// A payout's lines are read by payoutId. With an index on payoutId alone,
// SQLite preferred the shop's covering index of unpaid lines (shopId first)
// and read every line of the shop once per payout: gathering a shop of 10,000
// affiliates and 1M lines never finished (payouts benchmark). A pending
// payout holds no lines (ADR 058): the list counts its affiliate's loose
// lines, through the index of unpaid lines.
describe("a payout's lines are found by their payout", () => {
  it.skipIf(onPostgres)("when a batch sums them and when the list counts them", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    const order = await buildOrder(shop.id, { affiliateId: affiliate.id, status: "approved" });
    for (let n = 0; n < 3; n++)
      await buildCommission(shop.id, order.id, affiliate.id, { amount: 5_000, status: "approved", sourceRef: `r${n}` });
    await getDb().$transaction((tx) => refreshPendingPayouts(tx, shop.id));
    const db = shopDb(getDb(), shop.id);
    const [pending] = await getDb().payout.findMany({ where: { shopId: shop.id } });
    expect(pending!.status).toBe("pending");
    const pendingCounts = await statementsOf(() => payoutLineCounts(db, [pending!]));
    expect((await payoutLineCounts(db, [pending!])).get(pending!.id)).toBe(3);
    const statements = await statementsOf(
      () =>
        getDb().$transaction((tx) =>
          createPayoutBatch(tx, shop.id, { payoutIds: [pending!.id], method: "manual", createdBy: "test" }),
        ),
      /^\s*(SELECT|UPDATE)/i,
    );
    const taken = await getDb().payout.findUniqueOrThrow({ where: { id: pending!.id } });
    expect(taken.status).toBe("processing");
    const counts = await statementsOf(() => payoutLineCounts(db, [taken]));
    expect((await payoutLineCounts(db, [taken])).get(taken.id)).toBe(3);
    const byPayout = [...statements, ...counts].filter(
      (s) => /["`]payoutId["`]\s*(=|IN) /.test(s.sql) && /(SUM|COUNT)\(/.test(s.sql),
    );
    expect(byPayout.length).toBe(2);
    const found = plansOf(byPayout)
      .filter(({ plan }) => !/USING COVERING INDEX Commission_\w+ \(payoutId=\? AND shopId=\?\)/.test(plan))
      .map(({ sql, plan }) => `${sql}\n  => ${plan}`);
    expect(found).toEqual([]);
    const byBalance = pendingCounts.filter((s) => /COUNT\(/.test(s.sql));
    expect(byBalance.length).toBe(1);
    const scans = plansOf(byBalance)
      .filter(
        ({ plan }) =>
          !/SEARCH main\.Commission USING (COVERING )?INDEX Commission_unpaid_idx/.test(plan) || /SCAN/.test(plan),
      )
      .map(({ sql, plan }) => `${sql}\n  => ${plan}`);
    expect(scans).toEqual([]);
  });
});

// A refund reads its order and the order's lines under the write lock
// (webhook batch, ADR 035): by their keys, never through a shop-wide index.
describe("a refund finds its order and its lines by their keys", () => {
  it.skipIf(onPostgres)("not by the shop's index of unpaid lines", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    await getDb().coupon.create({ data: { shopId: shop.id, affiliateId: affiliate.id, code: "PLAN10" } });
    const order = fixtureWith("orders_create.json", (o) => {
      o.cancelled_at = null;
      o.order_status_url = orderStatusUrl(shop.domain);
      o.discount_codes = [{ code: "plan10", amount: "20.00", type: "fixed_amount" }];
    });
    const refund = fixtureWith("refunds_create.json", (r) => {
      r.refund_line_items = r.refund_line_items.slice(0, 1);
    });
    const stored = (topic: string, body: string) =>
      ingestWebhook({ shopDomain: shop.domain, topic, webhookId: topic, apiVersion: "2026-07", rawBody: body });
    expect(await stored("orders/create", order)).toBe("stored");
    await drainJobs();
    expect(await stored("refunds/create", refund)).toBe("stored");
    const statements = await statementsOf(() => drainJobs());
    const reads = plansOf(statements.filter((s) => /FROM "(Commission|Order)" WHERE/.test(s.sql)));
    const commission = reads.filter((r) => /FROM "Commission" WHERE "orderId" IN/.test(r.sql));
    expect(commission.length).toBeGreaterThan(0);
    for (const { sql, plan } of commission)
      expect(plan, sql).toMatch(/^SEARCH Commission USING (COVERING )?INDEX \w+ \(orderId=\?\)/);
    expect(await getDb().commission.count({ where: { kind: "refund" } })).toBe(1);
  });
});
