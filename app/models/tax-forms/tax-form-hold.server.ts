import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { chunks } from "../../lib/chunks";
import { affiliatesWithForm } from "./tax-form-store.server";
import { taxFormHold, taxSettingsOf, type HoldReason } from "./tax-requirement";

// Which pending payouts wait for their affiliate's tax form (Settings › Tax
// forms). Worked out whenever it matters (a person's Pay, auto-pay, the
// lists) rather than stored: a form signed, a setting changed or a new year
// takes effect at once, and no payout state is added to the payout table.

export interface HoldCandidate {
  id: string;
  affiliateId: string;
  amount: number;
  currency: string;
}

/** Payout id → why it waits, for the payouts given that must wait. */
export async function taxFormHolds(
  tx: Tx | ShopDb,
  shopId: string,
  payouts: readonly HoldCandidate[],
  now = new Date(),
): Promise<Map<string, Exclude<HoldReason, null>>> {
  const held = new Map<string, Exclude<HoldReason, null>>();
  if (payouts.length === 0) return held;
  const shop = await tx.shop.findUniqueOrThrow({ where: { id: shopId }, select: { settings: true, currency: true } });
  const settings = taxSettingsOf(shop.settings);
  if (settings.require === "off") return held;
  const affiliateIds = [...new Set(payouts.map((p) => p.affiliateId))];
  const withForm = await affiliatesWithForm(tx, shopId, affiliateIds);
  const without = affiliateIds.filter((id) => !withForm.has(id));
  const paidThisYear = new Map<string, number>();
  if (settings.require === "above" && without.length > 0) {
    const yearStart = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
    for (const part of chunks(without, 500)) {
      // Paid this calendar year, or on its way (a processing payout is paid as far as the limit goes).
      const rows = await tx.payout.groupBy({
        by: ["affiliateId"],
        where: {
          shopId,
          affiliateId: { in: part },
          currency: shop.currency,
          OR: [{ status: "paid", paidAt: { gte: yearStart } }, { status: "processing" }],
        },
        _sum: { amount: true },
      });
      for (const r of rows) paidThisYear.set(r.affiliateId, r._sum.amount ?? 0);
    }
  }
  for (const p of payouts) {
    const reason = taxFormHold({
      settings,
      shopCurrency: shop.currency,
      hasForm: withForm.has(p.affiliateId),
      payout: p,
      paidThisYear: paidThisYear.get(p.affiliateId) ?? 0,
    });
    if (reason) held.set(p.id, reason);
  }
  return held;
}

/** The same, for payouts known by id (only the pending ones can wait). */
export async function taxFormHoldsOf(
  tx: Tx | ShopDb,
  shopId: string,
  payoutIds: readonly string[],
): Promise<Map<string, Exclude<HoldReason, null>>> {
  const payouts: HoldCandidate[] = [];
  for (const part of chunks([...new Set(payoutIds)], 500)) {
    payouts.push(
      ...(await tx.payout.findMany({
        where: { shopId, id: { in: part }, status: "pending" },
        select: { id: true, affiliateId: true, amount: true, currency: true },
      })),
    );
  }
  return taxFormHolds(tx, shopId, payouts);
}
