import type { Db } from "../../db.server";
import { num } from "../../db/bulk-sql.server";
import { COMMISSION_STATUSES } from "../commissions/commission-states";
import { PAYABLE_SQL } from "./payable-balance";
import { query, type Client } from "./payout-sql.server";
import { PAYOUT_STATUSES } from "./payout-states";

// The money invariant checker (issue 25): what must hold of a shop's
// commission lines, payouts and rewards whatever happened to them, checked
// straight from the tables (not through the code that wrote them). The test
// suite runs it after every money test; `npm run check:money` runs it on a
// database. Each rule is one query that returns the rows breaking it.
//
// - every commission line is in at most one payout, of its own shop,
//   affiliate and currency, and only in a payout that still holds lines;
// - a line is paid if and only if its payout is paid, and a line in a payout
//   on its way is approved;
// - a pending payout holds no lines (it shows the loose balance and takes the
//   lines as it leaves pending, ADR 058); a processing or paid payout's
//   amount is the sum of its lines;
// - no payout item was sent twice: one PayPal item, one store-credit
//   transaction, one discount code per payout or reward; a line a paid payout
//   released and another payout paid again is recovered (an overpayment line);
//   an item PayPal reports paid is a paid payout;
// - balances: per affiliate and currency, what was earned (approved and paid
//   lines) minus what was paid and what is on its way equals the payable
//   balance as the app computes it (payable-balance.ts);
// - a finished batch holds no payout still open; a rewarded referral names
//   its reward.

export interface Violation {
  rule: string;
  shopId: string;
  /** The rows that break it (payout, line, batch or referral ids). */
  ids: string[];
  detail?: string;
}

interface Rule {
  name: string;
  /** SQL returning "shopId", "id" (and optionally "detail") of each breaking row; `{shop}` is the shop filter. */
  sql: string;
}

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");

const RULES: Rule[] = [
  {
    name: "line_in_foreign_payout",
    sql: `SELECT c."shopId", c."id" FROM "Commission" c JOIN "Payout" p ON p."id" = c."payoutId"
          WHERE (p."shopId" <> c."shopId" OR p."affiliateId" <> c."affiliateId" OR p."currency" <> c."currency"){shop:c}`,
  },
  {
    name: "line_in_released_payout",
    sql: `SELECT c."shopId", c."id" FROM "Commission" c JOIN "Payout" p ON p."id" = c."payoutId"
          WHERE p."status" IN ('failed', 'cancelled'){shop:c}`,
  },
  {
    name: "paid_line_without_paid_payout",
    sql: `SELECT c."shopId", c."id" FROM "Commission" c LEFT JOIN "Payout" p ON p."id" = c."payoutId"
          WHERE c."status" = 'paid' AND (p."id" IS NULL OR p."status" <> 'paid'){shop:c}`,
  },
  {
    name: "unpaid_line_in_paid_payout",
    sql: `SELECT c."shopId", c."id" FROM "Commission" c JOIN "Payout" p ON p."id" = c."payoutId"
          WHERE p."status" = 'paid' AND c."status" <> 'paid'{shop:c}`,
  },
  {
    name: "unapproved_line_in_open_payout",
    sql: `SELECT c."shopId", c."id" FROM "Commission" c JOIN "Payout" p ON p."id" = c."payoutId"
          WHERE p."status" IN ('pending', 'processing') AND c."status" <> 'approved'{shop:c}`,
  },
  {
    name: "line_in_pending_payout",
    sql: `SELECT c."shopId", c."id" FROM "Commission" c JOIN "Payout" p ON p."id" = c."payoutId"
          WHERE p."status" = 'pending'{shop:c}`,
  },
  {
    name: "payout_amount_not_its_lines",
    sql: `SELECT p."shopId", p."id", p."amount" || ' <> ' || COALESCE(SUM(c."amount"), 0) AS "detail"
          FROM "Payout" p LEFT JOIN "Commission" c ON c."payoutId" = p."id"
          WHERE p."status" IN ('processing', 'paid'){shop:p}
          GROUP BY p."shopId", p."id", p."amount" HAVING p."amount" <> COALESCE(SUM(c."amount"), 0)`,
  },
  {
    name: "paid_payout_without_date",
    sql: `SELECT p."shopId", p."id" FROM "Payout" p WHERE p."status" = 'paid' AND p."paidAt" IS NULL{shop:p}`,
  },
  {
    name: "unknown_status",
    sql: `SELECT c."shopId", c."id", c."status" AS "detail" FROM "Commission" c
          WHERE c."status" NOT IN (${list(COMMISSION_STATUSES)}){shop:c}
          UNION ALL
          SELECT p."shopId", p."id", p."status" AS "detail" FROM "Payout" p
          WHERE p."status" NOT IN (${list(PAYOUT_STATUSES)}){shop:p}`,
  },
  {
    name: "paypal_item_paid_twice",
    sql: `SELECT p."shopId", p."id", p."paypalItemId" AS "detail" FROM "Payout" p
          WHERE p."paypalItemId" IS NOT NULL{shop:p} AND EXISTS (
            SELECT 1 FROM "Payout" o WHERE o."paypalItemId" = p."paypalItemId" AND o."id" <> p."id")`,
  },
  {
    name: "paypal_success_not_paid",
    sql: `SELECT p."shopId", p."id", p."status" AS "detail" FROM "Payout" p
          WHERE p."method" = 'paypal' AND p."paypalItemStatus" = 'SUCCESS' AND p."status" <> 'paid'{shop:p}`,
  },
  {
    name: "store_credit_used_twice",
    sql: `SELECT p."shopId", p."id", p."reference" AS "detail" FROM "Payout" p
          WHERE p."method" = 'store_credit' AND p."reference" IS NOT NULL{shop:p} AND (
            EXISTS (SELECT 1 FROM "Payout" o WHERE o."shopId" = p."shopId" AND o."method" = 'store_credit'
                    AND o."reference" = p."reference" AND o."id" <> p."id")
            OR EXISTS (SELECT 1 FROM "Referral" r WHERE r."shopId" = p."shopId" AND r."rewardGid" = p."reference"))
          UNION ALL
          SELECT r."shopId", r."id", r."rewardGid" AS "detail" FROM "Referral" r
          WHERE r."rewardGid" IS NOT NULL AND r."rewardGid" NOT LIKE 'asked:%'{shop:r} AND EXISTS (
            SELECT 1 FROM "Referral" o WHERE o."shopId" = r."shopId" AND o."rewardGid" = r."rewardGid" AND o."id" <> r."id")`,
  },
  {
    name: "discount_code_used_twice",
    sql: `SELECT p."shopId", p."id", p."discountCode" AS "detail" FROM "Payout" p
          WHERE p."discountCode" IS NOT NULL{shop:p} AND (
            EXISTS (SELECT 1 FROM "Payout" o WHERE o."discountCode" = p."discountCode" AND o."id" <> p."id")
            OR EXISTS (SELECT 1 FROM "Referral" r WHERE r."rewardCode" = p."discountCode"))
          UNION ALL
          SELECT r."shopId", r."id", r."rewardCode" AS "detail" FROM "Referral" r
          WHERE r."rewardCode" IS NOT NULL{shop:r} AND EXISTS (
            SELECT 1 FROM "Referral" o WHERE o."rewardCode" = r."rewardCode" AND o."id" <> r."id")`,
  },
  {
    // A paid payout released a line (it had failed or been cancelled), the
    // line was paid again by another payout, and no overpayment line of the
    // first payout takes that money back.
    name: "line_paid_twice",
    sql: `SELECT p."shopId", p."id", r."commissionId" AS "detail" FROM "PayoutRelease" r
          JOIN "Payout" p ON p."id" = r."payoutId"
          JOIN "Commission" c ON c."id" = r."commissionId"
          WHERE p."status" = 'paid' AND c."status" = 'paid' AND c."payoutId" <> p."id"{shop:p}
            AND NOT EXISTS (SELECT 1 FROM "Commission" o WHERE o."payoutId" = p."id" AND o."kind" = 'overpayment')`,
  },
  {
    name: "finished_batch_with_open_payout",
    sql: `SELECT p."shopId", p."batchId" AS "id", p."id" AS "detail" FROM "Payout" p
          JOIN "PayoutBatch" b ON b."id" = p."batchId"
          WHERE b."completedAt" IS NOT NULL AND p."status" IN ('pending', 'processing'){shop:p}`,
  },
  {
    name: "rewarded_referral_without_reward",
    sql: `SELECT r."shopId", r."id" FROM "Referral" r
          WHERE r."status" = 'rewarded' AND (r."rewardedAt" IS NULL OR r."rewardGid" IS NULL OR r."rewardGid" LIKE 'asked:%'
            OR (r."rewardKind" = 'cash' AND NOT EXISTS (
              SELECT 1 FROM "Commission" c WHERE c."bonusKey" = 'referral:' || r."id")))
            {shop:r}`,
  },
];

/**
 * The balance rule: per affiliate and currency, earned (approved + paid
 * lines) − paid payouts − payouts on their way = payable (PAYABLE_SQL, the
 * app's own rule of what the next payout pays).
 */
const BALANCE_SQL = `
  SELECT e."shopId", e."affiliateId", e."currency", e."earned",
         COALESCE(po."paid", 0) AS "paid", COALESCE(po."sending", 0) AS "sending", COALESCE(pb."payable", 0) AS "payable"
  FROM (SELECT "shopId", "affiliateId", "currency", SUM("amount") AS "earned" FROM "Commission"
        WHERE "status" IN ('approved', 'paid'){shop:} GROUP BY "shopId", "affiliateId", "currency") e
  LEFT JOIN (SELECT "affiliateId", "currency",
               SUM(CASE WHEN "status" = 'paid' THEN "amount" ELSE 0 END) AS "paid",
               SUM(CASE WHEN "status" = 'processing' THEN "amount" ELSE 0 END) AS "sending"
             FROM "Payout" WHERE "status" IN ('paid', 'processing'){shop:} GROUP BY "affiliateId", "currency") po
    ON po."affiliateId" = e."affiliateId" AND po."currency" = e."currency"
  LEFT JOIN (SELECT "affiliateId", "currency", SUM("amount") AS "payable" FROM "Commission"
             WHERE ${PAYABLE_SQL}{shop:} GROUP BY "affiliateId", "currency") pb
    ON pb."affiliateId" = e."affiliateId" AND pb."currency" = e."currency"`;

function withShop(sql: string, shopId: string | undefined): { sql: string; params: string[] } {
  const params: string[] = [];
  const out = sql.replace(/\{shop:(\w*)\}/g, (_, alias: string) => {
    if (!shopId) return "";
    params.push(shopId);
    return ` AND ${alias ? `${alias}.` : ""}"shopId" = ?`;
  });
  return { sql: out, params };
}

/** Every violation of the money invariants, for one shop or (no shopId) all of them. */
export async function checkMoneyInvariants(client: Db | Client, options: { shopId?: string } = {}) {
  const violations: Violation[] = [];
  for (const rule of RULES) {
    const { sql, params } = withShop(rule.sql, options.shopId);
    const rows = await query<{ shopId: string; id: string; detail?: unknown }>(client, sql, ...params);
    const byShop = new Map<string, Violation>();
    for (const row of rows) {
      const v = byShop.get(row.shopId) ?? { rule: rule.name, shopId: row.shopId, ids: [] };
      v.ids.push(row.id);
      if (row.detail !== undefined && row.detail !== null) {
        v.detail = [v.detail, String(row.detail)].filter(Boolean).join("; ").slice(0, 500);
      }
      byShop.set(row.shopId, v);
    }
    violations.push(...byShop.values());
  }
  const balance = withShop(BALANCE_SQL, options.shopId);
  for (const row of await query<Record<string, unknown>>(client, balance.sql, ...balance.params)) {
    const [earned, paid, sending, payable] = [row.earned, row.paid, row.sending, row.payable].map(num);
    if (earned! - paid! - sending! === payable) continue;
    violations.push({
      rule: "balance_not_earned_minus_paid",
      shopId: String(row.shopId),
      ids: [String(row.affiliateId)],
      detail: `${String(row.currency)}: earned ${earned} - paid ${paid} - sending ${sending} <> payable ${payable}`,
    });
  }
  return violations;
}
