import { getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO, languageInfo } from "../../i18n/language-table";
import { msg } from "../../i18n/messages";
import { enqueueJob } from "../jobs/enqueue.server";
import { recordBatchEvent } from "../payouts/payout-sql.server";
import { markPayoutFailed } from "../payouts/settle-payout.server";
import type { SendableBatch } from "../payouts/senders/index.server";
import { applyPaypalItem, itemUpdateOf } from "./apply-paypal-item.server";
import {
  createPayout,
  duplicateOf,
  getPayoutBatch,
  PaypalError,
  type CreatePayoutResponse,
  type PaypalCredentials,
} from "./paypal-client.server";
import { paypalCredentials } from "./paypal-connection.server";
import { buildPayoutRequest } from "./paypal-payout-items";

// The PayPal sender (PAYOUT_SENDERS.paypal), run by the payouts.send-batch
// job after the batch's transaction committed. Exactly once:
// - sender_batch_id is the batch id, so PayPal itself refuses a second batch
//   (30 days), and PayPal-Request-Id is the same id;
// - the batch is marked "sending" before the call, and the answer
//   (payout_batch_id) is stored after it; a crash in between (kill -9) makes
//   the job run again and send the same body with the same id, and PayPal's
//   "duplicate sender_batch_id" answer is taken as "already sent": the batch
//   it links to is read back and stored, nothing is paid twice;
// - a timeout or 5xx is retried with the same id, a few times here, then by
//   the job's own retries.
// Payouts whose affiliate has no PayPal e-mail fail before anything is sent
// (their lines go back into the balance), the same way on every run.

const RETRIES_IN_RUN = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SendOptions {
  /** Requests this run may make before leaving the rest to the job's retries. */
  attempts?: number;
  /** Pause between the in-run retries (tests pass 0). */
  retryDelayMs?: number;
}

export async function sendPaypalBatch(db: Db, ref: SendableBatch, options: SendOptions = {}): Promise<void> {
  const batch = await db.payoutBatch.findUnique({ where: { id: ref.id } });
  if (!batch || batch.method !== "paypal" || batch.completedAt) return;
  if (batch.paypalBatchId) {
    // Sent and stored by an earlier run: only make sure it is followed.
    await scheduleFollow(db, batch.id, 0);
    return;
  }
  const shopId = batch.shopId;
  const credentials = await paypalCredentials(db, shopId).catch(() => null);
  const open = await db.payout.findMany({
    where: { batchId: batch.id, shopId, status: "processing" },
    select: {
      id: true,
      amount: true,
      currency: true,
      payoutAmount: true,
      payoutCurrency: true,
      affiliate: { select: { paypalEmail: true } },
    },
    orderBy: { id: "asc" },
  });
  if (!credentials) {
    await failAll(
      db,
      shopId,
      batch.id,
      open.map((p) => p.id),
      msg("Payouts:paypal.failure.notConnected"),
    );
    return;
  }
  const noEmail = open.filter((p) => !p.affiliate.paypalEmail?.trim());
  if (noEmail.length > 0) {
    await failAll(
      db,
      shopId,
      null,
      noEmail.map((p) => p.id),
      msg("Payouts:paypal.failure.noEmail"),
    );
  }
  const sendable = open
    .filter((p) => p.affiliate.paypalEmail?.trim())
    .map((p) => ({
      id: p.id,
      // In the affiliate's currency when the payout was converted as it left pending (ADR 052):
      // every run sends the amount stored then, never a new conversion.
      ...(p.payoutCurrency && p.payoutAmount !== null
        ? { amount: p.payoutAmount, currency: p.payoutCurrency }
        : { amount: p.amount, currency: p.currency }),
      paypalEmail: p.affiliate.paypalEmail!.trim(),
    }));
  if (sendable.length === 0) return;

  // PayPal's e-mail to the receivers, in the shop's language (one text for the whole batch).
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: { name: true, language: true } });
  const t = fixedT(languageInfo(shop?.language) ?? DEFAULT_LANGUAGE_INFO, ["Payouts"]);
  const name = shop?.name ?? getConfig().APP_NAME;
  const body = buildPayoutRequest(batch.id, sendable, {
    subject: t("Payouts:paypal.email.subject", { shop: name, interpolation: { escapeValue: false } }),
    note: t("Payouts:paypal.email.note", { shop: name, interpolation: { escapeValue: false } }),
  });
  // "Sent" from here on: whatever happens next, a later run sends the same id.
  await db.payoutBatch.updateMany({
    where: { id: batch.id, status: { in: ["created", "sending"] } },
    data: { status: "sending", lastError: null },
  });

  let answer: CreatePayoutResponse | null = null;
  let lastError: unknown = null;
  for (let attempt = 0; attempt < (options.attempts ?? RETRIES_IN_RUN) && !answer; attempt++) {
    if (attempt > 0) await sleep((options.retryDelayMs ?? 1000) * 2 ** (attempt - 1));
    try {
      answer = await createPayout(credentials, body);
    } catch (error) {
      lastError = error;
      const duplicate = duplicateOf(error);
      if (duplicate) {
        answer = await reconcileDuplicate(credentials, duplicate.payoutBatchId, error as PaypalError);
        break;
      }
      if (!(error instanceof PaypalError) || !error.retryable) break;
    }
  }
  if (!answer) {
    const text = lastError instanceof Error ? lastError.message : String(lastError);
    await db.payoutBatch.update({ where: { id: batch.id }, data: { lastError: text.slice(0, 500) } });
    if (lastError instanceof PaypalError && !lastError.retryable) {
      // PayPal refused the batch itself (validation, funds, permissions):
      // no retry can change that, so the merchant is told and the lines return.
      const detail = paypalWords(lastError);
      await failAll(
        db,
        shopId,
        batch.id,
        sendable.map((p) => p.id),
        msg("Payouts:paypal.failure.refused", { detail }),
      );
      return;
    }
    // A timeout or 5xx: the job runs again later with the same sender_batch_id.
    throw lastError instanceof Error ? lastError : new Error(text);
  }
  await storeAnswer(db, shopId, batch.id, answer);
}

/** PayPal said the id was used: read that first batch back (the link in its answer). */
async function reconcileDuplicate(
  credentials: PaypalCredentials,
  payoutBatchId: string | null,
  error: PaypalError,
): Promise<CreatePayoutResponse> {
  if (!payoutBatchId) {
    throw new PaypalError(`${error.message}; PayPal named no batch to reconcile with`, error.status, error.body, true);
  }
  const found = await getPayoutBatch(credentials, payoutBatchId, 1, 1);
  if (!found.batch_header) throw new PaypalError("PayPal's batch has no header", 200, null, true);
  return { batch_header: found.batch_header, links: found.links };
}

async function storeAnswer(db: Db, shopId: string, batchId: string, answer: CreatePayoutResponse) {
  const header = answer.batch_header;
  if (!header?.payout_batch_id) throw new PaypalError("PayPal's answer has no payout_batch_id", 201, null, true);
  const now = new Date();
  await db.$transaction(async (tx) => {
    await tx.payoutBatch.updateMany({
      where: { id: batchId, status: { in: ["created", "sending"] } },
      data: {
        paypalBatchId: header.payout_batch_id,
        paypalBatchStatus: header.batch_status ?? null,
        status: "sent",
        sentAt: now,
        lastError: null,
      },
    });
    // History only (recordPayoutProgress's "sent" line), one per payout.
    await recordBatchEvent(
      tx,
      { shopId, batchId },
      {
        idSuffix: ":paypal-sent",
        message: msg("Payouts:paypal.history.sent", { batch: header.payout_batch_id }),
        actor: "paypal",
        at: now,
      },
    );
    await tx.payout.updateMany({ where: { shopId, batchId, status: "processing" }, data: { sentAt: now } });
    await enqueueJob(
      tx,
      "paypal.follow-batch",
      { batchId, round: 0 },
      { uniqueKey: `paypal-follow:${batchId}:0`, runAt: followAt(0) },
    );
  });
}

async function failAll(db: Db, shopId: string, batchId: string | null, payoutIds: string[], reason: string) {
  await db.$transaction(async (tx) => {
    for (const id of payoutIds) await markPayoutFailed(tx, shopId, id, { reason, actor: "paypal", by: "sender" });
    if (batchId) {
      await tx.payoutBatch.updateMany({
        where: { id: batchId, completedAt: null },
        data: { status: "failed", completedAt: new Date() },
      });
    }
  });
}

function paypalWords(error: PaypalError): string {
  const details = (error.body?.details ?? []).map((d) => d.issue || d.description).filter(Boolean);
  return [error.body?.name, error.body?.message, ...details].filter(Boolean).join(" · ") || error.message;
}

function followAt(round: number): Date {
  const base = getConfig().PAYPAL_FOLLOW_SECONDS;
  const seconds = Math.min(6 * 3600, base * 2 ** round);
  return new Date(Date.now() + seconds * 1000);
}

async function scheduleFollow(db: Db, batchId: string, round: number) {
  await enqueueJob(
    db,
    "paypal.follow-batch",
    { batchId, round },
    { uniqueKey: `paypal-follow:${batchId}:${round}`, runAt: followAt(round) },
  );
}

// Past this many checks (about 40 days at the six-hour cap) PayPal has long
// returned anything unclaimed; the batch stays as it is for the merchant to see.
const MAX_ROUNDS = 180;

/**
 * The paypal.follow-batch job: reads the batch from PayPal (every page of
 * items), applies each item's state, and checks again later while any
 * payout of the batch is still on its way.
 */
export async function followPaypalBatch(db: Db, payload: { batchId: string; round: number }): Promise<void> {
  const batch = await db.payoutBatch.findUnique({ where: { id: payload.batchId } });
  if (!batch?.paypalBatchId) return;
  const credentials = await paypalCredentials(db, batch.shopId).catch(() => null);
  if (credentials) {
    let page = 1;
    let pages = 1;
    do {
      const answer = await getPayoutBatch(credentials, batch.paypalBatchId, page, 1000);
      pages = answer.total_pages ?? (answer.items?.length === 1000 ? page + 1 : page);
      const items = answer.items ?? [];
      for (const item of items) {
        await db.$transaction((tx) => applyPaypalItem(tx, batch.shopId, itemUpdateOf(item)));
      }
      if (page === 1 && answer.batch_header?.batch_status) {
        await db.payoutBatch.update({
          where: { id: batch.id },
          data: { paypalBatchStatus: answer.batch_header.batch_status },
        });
      }
      if (items.length === 0) break;
      page++;
    } while (page <= pages);
  } else {
    await db.payoutBatch.update({ where: { id: batch.id }, data: { lastError: "PayPal is not connected" } });
  }
  const open = await db.payout.count({ where: { batchId: batch.id, status: "processing" } });
  if (open > 0 && payload.round + 1 < MAX_ROUNDS) await scheduleFollow(db, batch.id, payload.round + 1);
}
