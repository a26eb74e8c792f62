import type { Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { methodRefusal, type MethodContext, type MethodRefusal } from "./method-usable";
import type { PayoutMethod } from "./payout-states";
import { PAYOUT_SENDERS } from "./senders/index.server";

const SENDERS = new Set(Object.keys(PAYOUT_SENDERS) as PayoutMethod[]);

/** What decides which methods a shop can pay with now (method-usable.ts), read from the database. */
export async function methodContext(client: Db | Tx, shopId: string): Promise<MethodContext> {
  const [paypal, shop] = await Promise.all([
    client.paypalConnection.findFirst({ where: { shopId }, select: { verifiedAt: true } }),
    client.shop.findUnique({ where: { id: shopId }, select: { pricingPlan: true } }),
  ]);
  return { paypalConnected: Boolean(paypal?.verifiedAt), pricingPlan: shop?.pricingPlan ?? null, senders: SENDERS };
}

/** Why the shop cannot pay with `method` now, or null. */
export async function shopMethodRefusal(
  client: Db | Tx,
  shopId: string,
  method: PayoutMethod,
): Promise<MethodRefusal | null> {
  return methodRefusal(method, await methodContext(client, shopId));
}
