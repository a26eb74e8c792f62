import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { AWAITING_APPROVAL, PAYABLE, totalsByCurrency, type Balance } from "./payable-balance";

/**
 * An affiliate's balance (payable-balance.ts says what counts), summed by the
 * database: two grouped sums served by the Commission(affiliateId, status)
 * index. `where` names the affiliate, and the shop where the caller has not
 * already checked that the affiliate is the shop's.
 */
export async function affiliateBalance(
  client: Db | Tx,
  where: { affiliateId: string; shopId?: string },
): Promise<Balance> {
  const sums = (filter: object) =>
    client.commission.groupBy({ by: ["currency"], where: { ...where, ...filter }, _sum: { amount: true } });
  const [payable, pending] = await Promise.all([sums(PAYABLE), sums(AWAITING_APPROVAL)]);
  const totals = (rows: { currency: string; _sum: { amount: number | null } }[]) =>
    totalsByCurrency(rows.map((r) => ({ currency: r.currency, amount: r._sum.amount ?? 0 })));
  return { payable: totals(payable), pending: totals(pending) };
}
