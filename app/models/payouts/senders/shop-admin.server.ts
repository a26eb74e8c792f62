import type { Db } from "../../../db.server";
import { AdminApiError, adminClientFor, type AdminClient } from "../../shopify/admin-client.server";
import { CUSTOMER_BY_EMAIL } from "../../shopify/admin-operations";
import { addPayoutEvent } from "../payout-history.server";
import { markPayoutFailed } from "../settle-payout.server";
import type { PayoutSender, SendableBatch } from "./index.server";

// What the Shopify senders (store credit, discount codes, gift cards) share: the
// batch's open payouts with their affiliates, the shop's Admin API client,
// and settling a payout in its own short transaction, so that a crash loses
// at most the payout being sent (and the sender's look-up before each
// Shopify write finds what that one did).

export interface OpenPayout {
  id: string;
  amount: number;
  currency: string;
  sentAt: Date | null;
  discountCode: string | null;
  giftCardCode: string | null;
  affiliate: { id: string; email: string; firstName: string; lastName: string; customerGid: string | null };
}

/** The batch's payouts still to settle, oldest first (a rerun picks up where a crash stopped). */
export function openPayouts(db: Db, batch: SendableBatch): Promise<OpenPayout[]> {
  return db.payout.findMany({
    where: { batchId: batch.id, shopId: batch.shopId, status: "processing" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      amount: true,
      currency: true,
      sentAt: true,
      discountCode: true,
      giftCardCode: true,
      affiliate: { select: { id: true, email: true, firstName: true, lastName: true, customerGid: true } },
    },
  });
}

/** The shop (with its currency) and an Admin API client on its offline session, or null. */
export async function shopAdmin(db: Db, shopId: string): Promise<{ client: AdminClient; currency: string } | null> {
  const shop = await db.shop.findUnique({
    where: { id: shopId },
    select: { domain: true, currency: true, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt) return null;
  const client = await adminClientFor(shop.domain);
  return client ? { client, currency: shop.currency } : null;
}

export async function failPayout(db: Db, shopId: string, payoutId: string, reason: string) {
  await db.$transaction((tx) => markPayoutFailed(tx, shopId, payoutId, { reason, actor: "system", by: "sender" }));
}

export async function failAll(db: Db, shopId: string, payouts: OpenPayout[], reason: string) {
  for (const p of payouts) await failPayout(db, shopId, p.id, reason);
}

/** Marks the batch as being sent (the first run only). */
export async function startSending(db: Db, batch: SendableBatch) {
  await db.payoutBatch.updateMany({
    where: { id: batch.id, shopId: batch.shopId, status: "created" },
    data: { status: "sending", sentAt: new Date() },
  });
}

/**
 * The affiliate's Shopify customer: the one linked to the affiliate, else the
 * store's customer with the affiliate's e-mail (then linked, so the next
 * payout and the self-referral check use it). Null when the affiliate does
 * not shop there.
 */
export async function customerOf(db: Db, client: AdminClient, shopId: string, p: OpenPayout): Promise<string | null> {
  if (p.affiliate.customerGid) return p.affiliate.customerGid;
  const email = p.affiliate.email.replace(/["\\]/g, "");
  const { data } = await client.run(CUSTOMER_BY_EMAIL, { query: `email:"${email}"` });
  const match = data.customers.nodes.find(
    (c) => c.defaultEmailAddress?.emailAddress.toLowerCase() === p.affiliate.email.toLowerCase(),
  );
  if (!match) return null;
  await db.affiliate.updateMany({ where: { id: p.affiliate.id, shopId }, data: { customerGid: match.id } });
  return match.id;
}

/**
 * Notes on the payout, in its history, that a Shopify write is about to be
 * made (and with what). A compare-and-set on the attempt time read with the
 * payout: if two runs of the batch's job overlap (a lease that ran out), one
 * makes the write and the other stops here; the job's retry then finds what
 * the first one did.
 */
export async function recordAttempt(
  db: Db,
  shopId: string,
  payout: Pick<OpenPayout, "id" | "sentAt">,
  message: string,
  fields: { sentAt: Date; discountCode?: string; giftCardCode?: string },
) {
  await db.$transaction(async (tx) => {
    const claimed = await tx.payout.updateMany({
      where: { id: payout.id, shopId, status: "processing", sentAt: payout.sentAt },
      data: fields,
    });
    if (claimed.count !== 1) throw new Error(`Payout ${payout.id}: another run is sending it; trying again later.`);
    await addPayoutEvent(tx, shopId, payout.id, { status: "processing", message, actor: "system" });
  });
}

/** Shopify's user errors as one line for the merchant. */
export function userErrorText(errors: { message: string }[]) {
  return errors.map((e) => e.message).join("; ") || "no answer";
}

/**
 * Sends each payout with `send`. Shopify refusing the app access (a scope
 * the shop has not granted yet) fails the payout, since a retry cannot help;
 * a throttled or unreachable API throws, and the job comes back later.
 */
export async function sendEach(db: Db, shopId: string, payouts: OpenPayout[], send: (p: OpenPayout) => Promise<void>) {
  for (const p of payouts) {
    try {
      await send(p);
    } catch (error) {
      const denied =
        error instanceof AdminApiError &&
        error.errors.some((e) => (e as { extensions?: { code?: string } }).extensions?.code === "ACCESS_DENIED");
      if (!denied) throw error;
      await failPayout(db, shopId, p.id, "no_store_access");
    }
  }
}

/**
 * A sender that pays each open payout of the batch through the shop's Admin
 * API with `sendOne`; a shop that took the app's access away fails them all.
 * A throttled or unreachable API throws: the job runs again later and carries
 * on from the first payout still open.
 */
export function shopAdminSender(
  sendOne: (db: Db, client: AdminClient, shopId: string, shopCurrency: string, p: OpenPayout) => Promise<void>,
): PayoutSender {
  return async (db, batch) => {
    const payouts = await openPayouts(db, batch);
    if (!payouts.length) return;
    const admin = await shopAdmin(db, batch.shopId);
    if (!admin) return failAll(db, batch.shopId, payouts, "no_store_access");
    await startSending(db, batch);
    await sendEach(db, batch.shopId, payouts, (p) => sendOne(db, admin.client, batch.shopId, admin.currency, p));
  };
}
