import type { Db } from "../../../db.server";
import type { AdminClient } from "../../shopify/admin-client.server";
import { STORE_CREDIT_CREDIT, STORE_CREDIT_RECENT_CREDITS } from "../../shopify/admin-operations";
import { toMinorUnits } from "../../shopify/money-string";
import { decimalAmount } from "../csv/payout-csv-format";
import { markPayoutPaid } from "../settle-payout.server";
import {
  customerOf,
  failPayout,
  recordAttempt,
  shopAdminSender,
  userErrorText,
  type OpenPayout,
} from "./shop-admin.server";

// Paying in Shopify store credit: storeCreditAccountCredit on the affiliate's
// customer record, in the payout's currency, one payout at a time.
//
// Shopify's credit mutation takes no idempotency key and no memo, so the
// sender makes it safe to repeat itself: before each credit it records the
// attempt's time on the payout (sentAt, committed), and a payout that already
// has one is first looked for among the account's latest credits: a credit of
// exactly its amount made since that time, which no other payout claims as its
// reference, is the one the crashed run made, and settles the payout without
// crediting again.

// Shopify's clock and ours may differ by a little.
const CLOCK_SKEW_MS = 2 * 60_000;

async function earlierCredit(db: Db, client: AdminClient, shopId: string, p: OpenPayout, customerId: string) {
  if (!p.sentAt) return null;
  const { data } = await client.run(STORE_CREDIT_RECENT_CREDITS, {
    customerId,
    accountQuery: `currency_code:${p.currency}`,
  });
  const credits = data.customer?.storeCreditAccounts.nodes[0]?.transactions.nodes ?? [];
  const since = p.sentAt.getTime() - CLOCK_SKEW_MS;
  const candidates = credits.filter(
    (c) =>
      c.id &&
      c.amount.currencyCode === p.currency &&
      toMinorUnits(c.amount.amount, p.currency) === p.amount &&
      new Date(c.createdAt).getTime() >= since,
  );
  if (!candidates.length) return null;
  const claimed = await db.payout.findMany({
    where: { shopId, method: "store_credit", reference: { in: candidates.map((c) => c.id!) }, id: { not: p.id } },
    select: { reference: true },
  });
  const taken = new Set(claimed.map((c) => c.reference));
  // The oldest unclaimed one: the list is newest first.
  return candidates.reverse().find((c) => !taken.has(c.id!)) ?? null;
}

async function creditOne(db: Db, client: AdminClient, shopId: string, p: OpenPayout) {
  const customerId = await customerOf(db, client, shopId, p);
  if (!customerId) return failPayout(db, shopId, p.id, "not_a_customer");

  const done = await earlierCredit(db, client, shopId, p, customerId);
  if (done) {
    await db.$transaction((tx) =>
      markPayoutPaid(tx, shopId, p.id, {
        reference: done.id!,
        paidAt: new Date(done.createdAt),
        actor: "system",
        by: "sender",
      }),
    );
    return;
  }

  const amount = decimalAmount(p.amount, p.currency);
  await recordAttempt(db, shopId, p, `store_credit_requested:${amount} ${p.currency}`, { sentAt: new Date() });
  const { data } = await client.run(STORE_CREDIT_CREDIT, {
    id: customerId,
    amount: { amount, currencyCode: p.currency },
  });
  const answer = data.storeCreditAccountCredit;
  const transaction = answer.storeCreditAccountTransaction;
  if (!transaction || answer.userErrors.length) {
    await failPayout(db, shopId, p.id, `shopify_refused:${userErrorText(answer.userErrors)}`);
    return;
  }
  await db.$transaction((tx) =>
    markPayoutPaid(tx, shopId, p.id, { reference: transaction.id, actor: "system", by: "sender" }),
  );
}

export const sendStoreCredit = shopAdminSender((db, client, shopId, _currency, p) => creditOne(db, client, shopId, p));
