import { getDb } from "../../db.server";
import { shopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { recordPixelReport, type PixelReport } from "../tracking/pixel-event.server";
import { parseSignals, withPixelSignal, type SignalAffiliate } from "./reconcile-signals";

// A Web Pixel report (tracking/pixel-event.server.ts) that arrives after its
// order was recorded updates the order's signal record, never its credit
// (ADR 056): after the pixel route stored the report, or from the
// pixel.reconcile job when the report and the order's intake raced.

/** POST /api/pixel/checkout-completed: the report stored, then the order's signal record, if the order is in. */
export async function acceptPixelReport(input: PixelReport): Promise<void> {
  const { shopId, pixel } = await recordPixelReport(input);
  await reconcileLatePixel(shopDb(getDb(), shopId), shopId, pixel);
}

/** What the reconciliation reads and writes through: a shop's client or a job's transaction. */
type Client = Pick<Tx, "order" | "click" | "affiliate" | "referralAlias" | "pixelEvent">;

/**
 * The pixel.reconcile job: order intake saw no report for a checkout whose
 * report was stored before intake committed (the two raced), so the order
 * gets the pixel's entry now, after the commit.
 */
export async function reconcileStoredPixel(client: Client, payload: { shopId: string; checkoutToken: string }) {
  const pixel = await client.pixelEvent.findFirst({
    where: { shopId: payload.shopId, checkoutToken: payload.checkoutToken },
  });
  if (pixel) await reconcileLatePixel(client, payload.shopId, pixel);
}

export type StoredPixel = {
  checkoutToken: string;
  orderGid: string | null;
  clickId: string | null;
  referralCode: string | null;
};

/** The affiliate a pixel report points to: its click's, else its code's (or an imported alias's, ADR 048). */
async function pixelAffiliate(db: Client, shopId: string, pixel: StoredPixel): Promise<SignalAffiliate | null> {
  const select = { id: true, firstName: true, lastName: true, referralCode: true } as const;
  const click = pixel.clickId
    ? await db.click.findFirst({ where: { shopId, clickId: pixel.clickId }, select: { affiliateId: true } })
    : null;
  let affiliate = click ? await db.affiliate.findFirst({ where: { shopId, id: click.affiliateId }, select }) : null;
  const code = pixel.referralCode?.toUpperCase();
  if (!affiliate && code) {
    affiliate =
      (await db.affiliate.findFirst({ where: { shopId, referralCode: code }, select })) ??
      (await db.referralAlias
        .findFirst({ where: { shopId, code }, select: { affiliate: { select } } })
        .then((alias) => alias?.affiliate ?? null));
  }
  if (!affiliate) return null;
  return {
    id: affiliate.id,
    who: `${`${affiliate.firstName} ${affiliate.lastName}`.trim()} (${affiliate.referralCode})`,
  };
}

/**
 * The order already recorded for this checkout gets the pixel's entry in its
 * signal record: compare-and-set on the record read, so a repeat (or a
 * report racing another) writes the same thing once. The credit stays.
 * An order recorded later reads the PixelEvent itself (planOrders).
 */
export async function reconcileLatePixel(db: Client, shopId: string, pixel: StoredPixel): Promise<void> {
  const byToken = { checkoutToken: pixel.checkoutToken };
  const where = { shopId, ...(pixel.orderGid ? { OR: [byToken, { shopifyGid: pixel.orderGid }] } : byToken) };
  const select = { id: true, affiliateId: true, attributionSignals: true, codeOnly: true, leakHoldId: true } as const;
  let order = await db.order.findFirst({ where, select });
  if (!order) return;
  const points = await pixelAffiliate(db, shopId, pixel);
  for (let attempt = 0; order && attempt < 3; attempt++) {
    const next = JSON.stringify(withPixelSignal(parseSignals(order.attributionSignals), points, order.affiliateId));
    // Leak watch (ADR 051) counts code-only orders: a pixel report is another
    // signal, so an order no flag holds yet stops counting as code-only.
    const clearCodeOnly = order.codeOnly === true && order.leakHoldId === null && points !== null;
    if (next === order.attributionSignals && !clearCodeOnly) return;
    const { count } = await db.order.updateMany({
      where: {
        id: order.id,
        shopId,
        attributionSignals: order.attributionSignals,
        ...(clearCodeOnly ? { codeOnly: true, leakHoldId: null } : {}),
      },
      data: { attributionSignals: next, ...(clearCodeOnly ? { codeOnly: null } : {}) },
    });
    if (count === 1) return;
    order = await db.order.findFirst({ where: { shopId, id: order.id }, select });
  }
}
