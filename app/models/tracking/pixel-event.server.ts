import { z } from "zod";
import { getDb } from "../../db.server";
import { shopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import type { Tx } from "../../db/transaction";
import { parseSignals, withPixelSignal, type SignalAffiliate } from "../attribution/reconcile-signals";
import { isMyshopifyDomain } from "./redirect-url";
import { parseReferralCode } from "./referral-code";

// The Web Pixel's checkout_completed report (extensions/affiliate-pixel),
// stored as a PixelEvent keyed by (shop, checkout token), so a repeated
// report changes nothing; attribution later matches it to the order by token.
// A report that arrives after its order was recorded updates the order's
// signal record (never its credit, ADR 054).

const orderGid = z.union([z.number().int().positive().safe(), z.string().trim().max(255)]).transform((value, ctx) => {
  const text = String(value);
  if (/^\d{1,20}$/.test(text)) return `gid://shopify/Order/${text}`;
  // The pixel may report an OrderIdentity GID; its number is the order's id.
  const gid = /^gid:\/\/shopify\/Order(?:Identity)?\/(\d{1,20})$/.exec(text);
  if (gid) return `gid://shopify/Order/${gid[1]}`;
  if (text === "") return null;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a Shopify order id." });
  return z.NEVER;
});

export const pixelReportSchema = z.object({
  shop: z
    .string()
    .trim()
    .toLowerCase()
    .refine((s) => isMyshopifyDomain(s), "Must be a {name}.myshopify.com domain."),
  checkout_token: z
    .string()
    .trim()
    .min(1, "Required.")
    .max(255)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Not a checkout token."),
  order_id: orderGid.nullish(),
  click_id: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/, "Not a click id.")
    .nullish(),
  ref: z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined || value.trim() === "") return null;
      const code = parseReferralCode(value);
      if (!code) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Not a referral code." });
        return z.NEVER;
      }
      return code;
    }),
});
export type PixelReport = z.infer<typeof pixelReportSchema>;

/** Stores a report (an unknown or uninstalled shop is 404); a repeat only fills in what the first lacked. */
export async function recordPixelReport(input: PixelReport): Promise<void> {
  const shop = await getDb().shop.findFirst({
    where: { domain: input.shop, uninstalledAt: null },
    select: { id: true },
  });
  if (!shop) throw new AppError("not_found", "Unknown shop.");
  const db = shopDb(getDb(), shop.id);
  // A click id only counts when it is one of this shop's clicks.
  const click = input.click_id
    ? await db.click.findFirst({ where: { clickId: input.click_id }, select: { clickId: true } })
    : null;
  const fields = {
    orderGid: input.order_id ?? null,
    clickId: click?.clickId ?? null,
    referralCode: input.ref,
  };
  const update = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
  const where = { shopId_checkoutToken: { shopId: shop.id, checkoutToken: input.checkout_token } };
  const upsert = () =>
    db.pixelEvent.upsert({
      where,
      create: { shopId: shop.id, checkoutToken: input.checkout_token, ...fields },
      update,
    });
  let stored: Awaited<ReturnType<typeof upsert>>;
  try {
    stored = await upsert();
  } catch (error) {
    // Two reports at once: the other one created the row; update it.
    if ((error as { code?: unknown }).code !== "P2002") throw error;
    stored = await upsert();
  }
  await reconcileLatePixel(db, shop.id, stored);
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

type StoredPixel = {
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
async function reconcileLatePixel(db: Client, shopId: string, pixel: StoredPixel): Promise<void> {
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
