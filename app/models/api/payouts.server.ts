import { chunks } from "../../lib/chunks";
import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { createPayoutBatch, PAY_TRANSACTION } from "../payouts/create-payout-batch.server";
import { payByChoice, requireMethodAllowed } from "../payouts/payout-admin.server";
import type { PayoutMethod } from "../payouts/payout-states";
import { refreshPendingPayouts } from "../payouts/refresh-pending-payouts.server";
import { markPayoutPaid } from "../payouts/settle-payout.server";
import { payoutLineCounts } from "../payouts/payout-line-counts.server";
import { afterCursor, pageOrder, toPage } from "../pagination/cursor.server";
import type { PayoutListQuery } from "./payout-schemas";
import type { MessageRef } from "../../i18n/messages";
import { englishMessage } from "../../i18n/messages.server";
import { convertedView } from "../payouts/converted-view";
import { payoutHolds } from "../payouts/payout-holds.server";

const IN_CHUNK = 500;

// /api/v1/payouts. An API key is the shop's (made by its admin), so it may
// use every method the shop has, as the admin may.

type Row = Awaited<ReturnType<ShopDb["payout"]["findFirstOrThrow"]>>;

interface Extras {
  lines: Map<string, number>;
  holds: Map<string, MessageRef[]>;
}

/** Why it waits, as the API gives reasons: English, with the key and values beside it. */
function serializeHold(ref: MessageRef) {
  return { reason: englishMessage(ref), reason_key: ref.key, reason_values: ref.values ?? {} };
}

function serialize(p: Row, extras: Extras) {
  const converted = convertedView(p);
  return {
    id: p.id,
    affiliate_id: p.affiliateId,
    amount: p.amount,
    currency: p.currency,
    // Paid in the affiliate's currency (ADR 052): written once as the payout left pending.
    payout_currency: converted?.currency ?? null,
    payout_amount: converted?.amount ?? null,
    exchange_rate: converted?.rate ?? null,
    rate_source: converted?.source ?? null,
    rate_at: converted?.at ?? null,
    status: p.status,
    holds: (extras.holds.get(p.id) ?? []).map(serializeHold),
    method: p.method,
    batch_id: p.batchId,
    reference: p.reference,
    note: p.note,
    failure_reason: p.failureReason,
    paypal_item_id: p.paypalItemId,
    paypal_item_status: p.paypalItemStatus,
    line_count: extras.lines.get(p.id) ?? 0,
    created_at: p.createdAt.toISOString(),
    sent_at: p.sentAt?.toISOString() ?? null,
    paid_at: p.paidAt?.toISOString() ?? null,
  };
}

async function extrasOf(db: ShopDb, rows: readonly Row[]): Promise<Extras> {
  const [lines, holds] = await Promise.all([payoutLineCounts(db, rows), payoutHolds(db, db.$shopId, rows)]);
  return { lines, holds };
}

export async function listPayouts(db: ShopDb, query: PayoutListQuery) {
  const rows = await db.payout.findMany({
    where: {
      shopId: db.$shopId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.affiliate_id ? { affiliateId: query.affiliate_id } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: pageOrder,
    take: query.limit + 1,
  });
  const extras = await extrasOf(db, rows.slice(0, query.limit));
  return toPage(rows, query.limit, (row) => serialize(row, extras));
}

export async function getPayout(db: ShopDb, id: string) {
  const row = await db.payout.findFirst({ where: { id, shopId: db.$shopId } });
  if (!row) throw new AppError("not_found", "No payout with this id.");
  return serialize(row, await extrasOf(db, [row]));
}

/**
 * Gathers the affiliates' approved lines into pending payouts, then sends
 * every positive pending payout of those affiliates (or of the whole shop):
 * in one batch by `method`, or, without one, each by its affiliate's own
 * method (the shop's default where they have none), a batch per method.
 */
export async function createAndSendPayouts(db: ShopDb, input: { affiliate_ids?: string[]; method?: PayoutMethod }) {
  const caller = { id: null, role: "admin" } as const;
  if (input.method) await requireMethodAllowed(db, caller, input.method);
  const shopId = db.$shopId;
  if (input.affiliate_ids) {
    // In groups: up to 10,000 ids, more than one statement may bind (P2029).
    const unique = [...new Set(input.affiliate_ids)];
    let known = 0;
    for (const part of chunks(unique, IN_CHUNK)) {
      known += await db.affiliate.count({ where: { shopId, id: { in: part } } });
    }
    if (known !== unique.length) {
      throw new AppError("validation_failed", "Some affiliate ids are not this shop's affiliates.", {
        fields: { affiliate_ids: "Unknown affiliate id" },
      });
    }
  }
  const batchIds = await db.$transaction(async (tx) => {
    await refreshPendingPayouts(tx, shopId, { affiliateIds: input.affiliate_ids });
    const pending: { id: string }[] = [];
    for (const part of input.affiliate_ids ? chunks([...new Set(input.affiliate_ids)], IN_CHUNK) : [null]) {
      pending.push(
        ...(await tx.payout.findMany({
          where: { shopId, status: "pending", amount: { gt: 0 }, ...(part ? { affiliateId: { in: part } } : {}) },
          select: { id: true },
        })),
      );
    }
    if (pending.length === 0) return [];
    const payoutIds = pending.map((p) => p.id);
    if (!input.method) {
      return (await payByChoice(db, tx, { id: "api", role: "admin" }, payoutIds)).batches.map((b) => b.batchId);
    }
    const { batchId } = await createPayoutBatch(tx, shopId, { payoutIds, method: input.method, createdBy: "api" });
    return [batchId];
  }, PAY_TRANSACTION);
  const payouts = batchIds.length
    ? await db.payout.findMany({ where: { shopId, batchId: { in: batchIds } }, orderBy: pageOrder })
    : [];
  const extras = await extrasOf(db, payouts);
  return { batch_id: batchIds[0] ?? null, batch_ids: batchIds, payouts: payouts.map((p) => serialize(p, extras)) };
}

export async function markPaidByApi(
  db: ShopDb,
  id: string,
  input: { reference?: string; paid_at?: string; note?: string },
) {
  const paidAt = input.paid_at ? new Date(input.paid_at) : undefined;
  if (paidAt && paidAt.getTime() > Date.now() + 60_000) {
    throw new AppError("validation_failed", "paid_at cannot be in the future.", {
      fields: { paid_at: "In the future" },
    });
  }
  const result = await db.$transaction((tx) =>
    markPayoutPaid(tx, db.$shopId, id, {
      reference: input.reference,
      note: input.note,
      paidAt,
      actor: "api",
      by: "merchant",
    }),
  );
  // Already paid: the same request again (a client's retry) gets the same
  // answer; a different payment recorded by someone else is a conflict.
  if (!result.changed && (result.payout.reference ?? undefined) !== input.reference) {
    throw new AppError("conflict", "This payout is already paid (with another reference).");
  }
  return getPayout(db, id);
}
