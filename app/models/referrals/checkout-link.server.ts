import { z } from "zod";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";
import { planAllows } from "../plans/plans";
import { isMyshopifyDomain } from "../tracking/redirect-url";
import { emailKey } from "./email-key";
import { ensureAdvocate } from "./ensure-advocate.server";
import { readReferralProgram, type ReferralProgram } from "./program-settings";

// The thank-you / order-status block's request (extensions/referral-thank-you):
// "give this buyer their share link". Shopify vouches for the shop (the
// session token's `dest`) and, when the buyer is logged in, for the customer
// (`sub`); everything in the body is what the buyer's browser says. So the
// e-mail a link is made for always comes from an order this app recorded for
// that shop (orders/create): the logged-in customer's own order, or, for a
// guest, the order the block names, and only when the e-mail it sends is that
// order's. An order not recorded yet (the webhook is seconds behind the
// thank-you page) answers "pending" and the block asks again.

const ORDER_GID = /^gid:\/\/shopify\/Order\/\d{1,20}$/;
const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/\d{1,20}$/;

/** How long the block waits before asking again while the order is on its way. */
export const PENDING_RETRY_MS = 3000;

// The extension mirrors this shape (src/referral-logic.ts builds it): it runs
// in Shopify's sandbox without zod, so the server's schema is the check.
export const checkoutLinkRequestSchema = z
  .object({
    orderId: z.string().trim().regex(ORDER_GID, "Must be an order GID (gid://shopify/Order/...)."),
    email: z.string().trim().max(254).email("Must be an e-mail address.").optional(),
    firstName: z.string().trim().max(60).optional(),
  })
  .strict();
export type CheckoutLinkRequest = z.infer<typeof checkoutLinkRequestSchema>;

/** The claims of a verified session token that this endpoint reads. */
export interface CheckoutTokenClaims {
  aud?: unknown;
  dest?: unknown;
  sub?: unknown;
}

export type FriendOffer = { type: ReferralProgram["friendReward"]["type"]; value: number; currency: string };

export type CheckoutLinkAnswer =
  | { status: "ready"; shareUrl: string; friendCode: string | null; firstName: string; friendOffer: FriendOffer }
  | { status: "pending"; retryAfterMs: number }
  // Program off, plan without refer-a-friend, unknown shop, or nothing to
  // offer this buyer: the block shows nothing.
  | { status: "off" };

const OFF: CheckoutLinkAnswer = { status: "off" };

/** `dest` is the shop's domain, with or without https:// (Shopify sends both forms across surfaces). */
export function shopDomainOf(dest: unknown): string | null {
  if (typeof dest !== "string") return null;
  const host = dest
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/.*$/, "");
  return isMyshopifyDomain(host) ? host : null;
}

export const customerGidOf = (sub: unknown): string | null =>
  typeof sub === "string" && CUSTOMER_GID.test(sub) ? sub : null;

export async function checkoutShareLink(
  claims: CheckoutTokenClaims,
  input: CheckoutLinkRequest,
): Promise<CheckoutLinkAnswer> {
  // shopify-app-remix checks the signature and the times, not the audience.
  if (claims.aud !== getConfig().SHOPIFY_API_KEY)
    throw new AppError("unauthenticated", "The session token is for another app.");
  const domain = shopDomainOf(claims.dest);
  if (!domain) throw new AppError("unauthenticated", "The session token names no shop.");
  const db = getDb();
  const shop = await db.shop.findFirst({
    where: { domain, uninstalledAt: null },
    select: { id: true, url: true, settings: true, pricingPlan: true, currency: true },
  });
  if (!shop || !planAllows(shop.pricingPlan, "referAFriend")) return OFF;
  const program = readReferralProgram(shop.settings);
  if (!program.enabled) return OFF;

  const customerGid = customerGidOf(claims.sub);
  const order = await db.order.findFirst({
    where: { shopId: shop.id, shopifyGid: input.orderId },
    select: { customerEmail: true, customerGid: true },
  });
  if (!order) return { status: "pending", retryAfterMs: PENDING_RETRY_MS };
  if (customerGid) {
    // A logged-in buyer asks about their own order only.
    if (order.customerGid !== customerGid) throw new AppError("forbidden", "This order is not yours.");
  } else {
    if (!input.email) return OFF;
    if (!order.customerEmail || emailKey(order.customerEmail) !== emailKey(input.email))
      throw new AppError("forbidden", "This e-mail address did not place this order.");
  }
  if (!order.customerEmail) return OFF;
  const email = order.customerEmail;

  try {
    const link = await db.$transaction((tx) =>
      ensureAdvocate(tx, shop, {
        email,
        customerGid: customerGid ?? order.customerGid,
        // The name is only ever shown back to friends as the buyer typed it;
        // a guest's claim is not taken for a name.
        firstName: customerGid ? input.firstName : undefined,
        hasOrdered: true,
        source: "thank_you",
      }),
    );
    return {
      status: "ready",
      shareUrl: link.shareUrl,
      friendCode: link.friendCode,
      firstName: link.firstName,
      friendOffer: { type: program.friendReward.type, value: program.friendReward.value, currency: shop.currency },
    };
  } catch (error) {
    // ensureAdvocate refuses (4xx) a buyer the program does not take, e.g. a
    // withdrawn advocate: the block simply shows nothing.
    if (error instanceof AppError && error.status < 500) return OFF;
    throw error;
  }
}
