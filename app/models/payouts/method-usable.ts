import { planAllows } from "../plans/plans";
import { isSendingMethod, type PayoutMethod } from "./payout-states";

// Whether a shop can pay with a method now: every way of paying asks this
// (the Pay dialog, the REST API, auto-pay, and the sender when the batch's
// job runs), from the shop's current plan and connections, so a shop that
// moved to a plan without PayPal payouts sends nothing through PayPal, even
// in a batch made before the change. Pure: the caller reads the shop.

export interface MethodContext {
  /** A verified PayPal connection. */
  paypalConnected: boolean;
  /** The shop's plan id now. */
  pricingPlan: string | null;
  /** The sending methods this build has a sender for (senders/index.server.ts). */
  senders: ReadonlySet<PayoutMethod>;
}

export type MethodRefusal = "plan" | "not_connected" | "no_sender";

/** Why the shop cannot pay with `method` now, or null when it can. */
export function methodRefusal(method: PayoutMethod, ctx: MethodContext): MethodRefusal | null {
  if (isSendingMethod(method) && !ctx.senders.has(method)) return "no_sender";
  if (method === "paypal") {
    if (!planAllows(ctx.pricingPlan, "paypalPayouts")) return "plan";
    if (!ctx.paypalConnected) return "not_connected";
  }
  return null;
}
