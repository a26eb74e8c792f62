import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import type { MessageRef } from "../../i18n/messages";
import { taxFormHolds, type HoldCandidate } from "../tax-forms/tax-form-hold.server";
import { rateHoldRef, rateHolds } from "./payout-currency.server";

// Every reason a pending payout waits, as message keys with their values:
// the tax form (ADR 041) and the exchange rate (ADR 052). Both are worked
// out on reading, never stored, so whoever asks (the REST API here) sees a
// signed form or an entered rate end the wait at once. A payout may wait for
// both; the tax form comes first, as on the admin list.

export async function payoutHolds(
  client: Tx | ShopDb,
  shopId: string,
  payouts: readonly (HoldCandidate & { status: string })[],
): Promise<Map<string, MessageRef[]>> {
  const pending = payouts.filter((p) => p.status === "pending");
  const holds = new Map<string, MessageRef[]>();
  if (pending.length === 0) return holds;
  const [tax, rate] = await Promise.all([taxFormHolds(client, shopId, pending), rateHolds(client, shopId, pending)]);
  for (const p of pending) {
    const refs: MessageRef[] = [];
    const taxReason = tax.get(p.id);
    if (taxReason) refs.push({ key: `Tax:hold.${taxReason}` });
    const rateHold = rate.get(p.id);
    if (rateHold) refs.push(rateHoldRef(rateHold));
    if (refs.length > 0) holds.set(p.id, refs);
  }
  return holds;
}
