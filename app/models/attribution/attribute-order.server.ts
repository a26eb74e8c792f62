import type { Tx } from "../jobs/job-queue.server";
import type { NormalizedOrder } from "../shopify/order-payload";
import { attributeOrder, type AffiliateFacts, type AttributionDecision, type LinkSignal } from "./attribute-order";

// Gathers the signals of an order from the database and lets the pure
// attributeOrder decide.

const affiliateSelect = {
  id: true,
  firstName: true,
  lastName: true,
  referralCode: true,
  email: true,
  customerGid: true,
  status: true,
  campaign: { select: { cookieDays: true } },
} as const;

type AffiliateRow = {
  id: string;
  firstName: string;
  lastName: string;
  referralCode: string;
  email: string;
  customerGid: string | null;
  status: string;
  campaign: { cookieDays: number };
};

function facts(a: AffiliateRow): AffiliateFacts {
  return {
    id: a.id,
    name: `${a.firstName} ${a.lastName}`.trim(),
    code: a.referralCode,
    email: a.email,
    customerGid: a.customerGid,
    status: a.status,
    cookieDays: a.campaign.cookieDays,
  };
}

async function linkFrom(tx: Tx, shopId: string, clickId: string | null | undefined, code: string | null | undefined, fallbackAt: Date): Promise<LinkSignal | null> {
  if (clickId) {
    const click = await tx.click.findFirst({
      where: { shopId, clickId: clickId.slice(0, 64) },
      select: { clickId: true, createdAt: true, affiliate: { select: affiliateSelect } },
    });
    if (click) return { affiliate: facts(click.affiliate), clickId: click.clickId, at: click.createdAt };
  }
  if (code) {
    const affiliate = await tx.affiliate.findFirst({ where: { shopId, referralCode: code.trim().toUpperCase().slice(0, 64) }, select: affiliateSelect });
    if (affiliate) return { affiliate: facts(affiliate), clickId: null, at: fallbackAt };
  }
  return null;
}

export async function decideAttribution(
  tx: Tx,
  shop: { id: string; attributionModel: string },
  order: NormalizedOrder,
): Promise<AttributionDecision> {
  const couponRow = order.discountCodes.length
    ? await tx.coupon.findFirst({
        where: { shopId: shop.id, code: { in: order.discountCodes } },
        select: { code: true, affiliate: { select: affiliateSelect } },
      })
    : null;

  // The cart may carry a recorded click and a code; when they name different
  // affiliates both are signals, and the shop's first/last-click setting picks.
  const byClick = await linkFrom(tx, shop.id, order.attributes._affiliate_click, null, order.placedAt);
  const byCode = await linkFrom(tx, shop.id, null, order.attributes._affiliate_ref, order.placedAt);
  const links = [byClick, byCode && byCode.affiliate.id !== byClick?.affiliate.id ? byCode : null].filter(
    (l): l is LinkSignal => l !== null,
  );

  let pixel: LinkSignal | null = null;
  if (order.checkoutToken) {
    const event = await tx.pixelEvent.findUnique({
      where: { shopId_checkoutToken: { shopId: shop.id, checkoutToken: order.checkoutToken } },
      select: { clickId: true, referralCode: true },
    });
    if (event) pixel = await linkFrom(tx, shop.id, event.clickId, event.referralCode, order.placedAt);
  }

  const keys = [order.customerGid, order.email].filter((k): k is string => Boolean(k));
  const lifetimeRow = keys.length
    ? await tx.customerLink.findFirst({ where: { shopId: shop.id, customerKey: { in: keys } }, select: { affiliate: { select: affiliateSelect } } })
    : null;

  return attributeOrder({
    placedAt: order.placedAt,
    buyerEmail: order.email,
    buyerCustomerGid: order.customerGid,
    attributionModel: shop.attributionModel === "first_click" ? "first_click" : "last_click",
    coupon: couponRow ? { code: couponRow.code, affiliate: facts(couponRow.affiliate) } : null,
    links,
    pixel,
    lifetime: lifetimeRow ? facts(lifetimeRow.affiliate) : null,
  });
}
