import type { OrderPayload } from "../shopify/order-payload";
import { shopSettingsObject } from "../settings/shop-settings";
import { INVITE_TOKEN_ATTRIBUTE } from "./share-link";

// What the webhook path decides about refer-a-friend without a query: the
// order job runs only for orders that can be referrals (a discount code, or
// the share link's cart attribute) of shops whose program is switched on. The
// job itself reads the program properly and decides; this is only the cheap
// filter that keeps every other order off it.

const settingsOf = (settingsJson: string | null | undefined) => {
  const stored = shopSettingsObject(settingsJson).referrals;
  return stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : null;
};

/** The program is switched on (as stored; the job validates the rest). */
export const referralProgramOn = (settingsJson: string | null | undefined) =>
  settingsOf(settingsJson)?.enabled === true;

/** The shop has had a program at some time: its referrals may need cancelling even after it was switched off. */
export const referralProgramEverSet = (settingsJson: string | null | undefined) => settingsOf(settingsJson) !== null;

/** An order that could be a referral: it used a discount code or came through a share link. */
export function mayBeReferral(order: Pick<OrderPayload, "discount_codes" | "note_attributes">): boolean {
  return (
    order.discount_codes.length > 0 ||
    order.note_attributes.some(
      (a) => a.name === INVITE_TOKEN_ATTRIBUTE && typeof a.value === "string" && a.value !== "",
    )
  );
}

/** The referral job's uniqueness: one per order, however many webhooks name it. */
export const referralOrderJobKey = (shopId: string, orderGid: string) => `referral-order:${shopId}:${orderGid}`;
