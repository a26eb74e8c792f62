import { randomUUID } from "node:crypto";
import { connect, type Socket } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { z } from "zod";
import { ANY_SHOP, prismaBulk, type BulkSql } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import type { Tx } from "../../db/transaction";
import { DEFAULT_MAX_ATTEMPTS } from "../../db/job-queue.server";
import { getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import { logText } from "../../lib/log-text";
import { jobRow } from "../jobs/enqueue.server";
import { observeEmails } from "../ops/metrics.server";

// E-mails are written to the outbox inside the transaction that calls for
// them, with a job that delivers each one after the commit (a rolled-back
// request sends nothing; a crash after the commit still sends). With SMTP_URL
// the job sends over SMTP (nodemailer). Without it nothing is sent and the
// outbox row keeps the message: the demo shop's e-mails are printed to the
// log (so the demo's password resets work without a mail server), anyone
// else's are not, since their links (reset tokens) are live.

export interface OutgoingEmail {
  shopId: string | null;
  to: string;
  subject: string;
  text: string;
  /** The HTML part (notifications); text only without it. */
  html?: string | null;
  /** The notification key (notifications/catalogue.ts). */
  kind?: string | null;
  /** "{event id}:{recipient}": a second e-mail with the same key is refused by the database. */
  dedupeKey?: string | null;
  /** RFC 8058 one-click unsubscribe address (non-transactional e-mail only). */
  unsubscribeUrl?: string | null;
  isTest?: boolean;
}

/** writeEmail in the caller's Prisma transaction. */
export function queueEmail(tx: Tx, email: OutgoingEmail) {
  return writeEmail(prismaBulk(tx, dialectOf(tx)), email);
}

/**
 * queueEmail for e-mails composed before the transaction; one whose dedupe
 * key was taken meanwhile is skipped. Answers how many were new.
 */
export async function queueEmails(tx: Tx, emails: readonly OutgoingEmail[]): Promise<number> {
  let queued = 0;
  for (const email of emails) if (await queueEmail(tx, email)) queued++;
  return queued;
}

/**
 * Stores one e-mail and its email.send job with the caller's other writes.
 * Answers its id, or null when its dedupe key is taken or its recipient
 * opted out of its kind (then nothing is written). Both are checked here,
 * in the transaction that writes it, not when it was composed: an opt-out
 * saved in between is honoured, and the hot path (event dispatch) checks
 * with the writer's prepared statements instead of two Prisma reads per
 * e-mail before it.
 */
export async function writeEmail(writer: BulkSql, email: OutgoingEmail): Promise<string | null> {
  const now = new Date();
  const [row] = await withoutOptedOut(writer, [outboxRow(email, now)]);
  if (!row) return null;
  const [id] = await writer.insertNew("OutboxEmail", [row], "id");
  if (!id) return null;
  await writer.insertRows("Job", [jobRow("email.send", { id }, { now })]);
  return id;
}

/** The OutboxEmail row of an e-mail, queued. */
export function outboxRow(email: OutgoingEmail, now: Date) {
  return {
    id: randomUUID(),
    shopId: email.shopId,
    toAddress: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html ?? null,
    kind: email.kind ?? null,
    dedupeKey: email.dedupeKey ?? null,
    unsubscribeUrl: email.unsubscribeUrl ?? null,
    isTest: email.isTest ?? false,
    status: "queued",
    attempts: 0,
    createdAt: now,
  };
}

/**
 * The rows but those whose recipient opted out of their kind, read with one
 * statement in the writer's transaction. Only an e-mail that can be
 * unsubscribed from (it carries the one-click address: not transactional)
 * and is not a test can be stopped.
 */
export async function withoutOptedOut<R extends ReturnType<typeof outboxRow>>(
  writer: BulkSql,
  rows: R[],
): Promise<R[]> {
  const stoppable = (row: R) => Boolean(row.unsubscribeUrl && !row.isTest && row.kind && row.shopId);
  const stoppableRows = rows.filter(stoppable);
  const addresses = [...new Set(stoppableRows.map((row) => row.toAddress))];
  const shopIds = [...new Set(stoppableRows.map((row) => row.shopId!))];
  if (addresses.length === 0) return rows;
  const optOuts = new Set(
    (
      await writer
        .from("MailOptOut")
        .findIn<{ shopId: string; address: string; kind: string }>(
          ["shopId", "address", "kind"],
          { shopId: shopIds },
          "address",
          addresses,
        )
    ).map((o) => `${o.shopId}\n${o.address}\n${o.kind}`),
  );
  return rows.filter((row) => !stoppable(row) || !optOuts.has(`${row.shopId}\n${row.toAddress}\n${row.kind}`));
}

const transports = new Map<string, Transporter>();

// email.send runs several jobs at once (app/worker/job-registry.server.ts): a pool keeps a
// few SMTP connections open and reuses them, instead of a TCP and SMTP
// handshake per message (an explicit pool=false in SMTP_URL still wins).
// On a plain connection Nagle's algorithm is turned off: SMTP is a dialogue
// of short lines, and with it each message stalled on delayed ACKs (about
// 50 ms per message on loopback, 20 e-mails/s per connection). nodemailer
// takes a socket of ours only as an open `connection` (an unconnected
// `socket` is ignored), so it is connected here, with nodemailer's time
// limit. An smtps:// connection keeps nodemailer's own TLS socket; STARTTLS
// upgrades this one in place.
const CONNECTION_TIMEOUT_MS = 2 * 60 * 1000;

function openSocket(options: { host?: string; port?: number; connectionTimeout?: number }) {
  return (_: unknown, callback: (error: Error | null, socketOptions?: { connection: Socket }) => void) => {
    const socket = connect({ host: options.host ?? "localhost", port: options.port ?? 25 });
    socket.setNoDelay(true);
    const timer = setTimeout(
      () => socket.destroy(new Error("Connection timeout")),
      options.connectionTimeout ?? CONNECTION_TIMEOUT_MS,
    );
    const onError = (error: Error) => {
      clearTimeout(timer);
      callback(error);
    };
    socket.once("error", onError);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.off("error", onError);
      // nodemailer adds its own handler when it takes the socket; this one
      // only keeps an error in between from ending the process.
      socket.on("error", () => {});
      callback(null, { connection: socket });
    });
  };
}

function smtpTransport(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    const parsed = parseConnectionUrl(url) as SMTPPool.Options | (SMTPTransport.Options & { pool: false });
    const options = { ...parsed, pool: (parsed as { pool?: boolean }).pool ?? true } as SMTPPool.Options;
    if (!options.secure) options.getSocket = openSocket(options) as SMTPPool.Options["getSocket"];
    transport = nodemailer.createTransport(options);
    transports.set(url, transport);
  }
  return transport;
}

/** What one message needs from its outbox row. */
type OutboxRow = {
  id: string;
  shopId: string | null;
  toAddress: string;
  subject: string;
  text: string;
  html: string | null;
  unsubscribeUrl: string | null;
  status: string;
};
type Sender = { from: string | { name: string; address: string }; replyTo: string | null };

async function deliver(url: string, row: OutboxRow, sender: Sender) {
  await smtpTransport(url).sendMail({
    from: sender.from,
    ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
    to: row.toAddress,
    subject: row.subject,
    text: row.text,
    ...(row.html ? { html: row.html } : {}),
    ...(row.unsubscribeUrl
      ? {
          // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" to the URL.
          list: { unsubscribe: row.unsubscribeUrl },
          headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        }
      : {}),
  });
  observeEmails("sent");
}

/** The delivery log's record of a failed send, and whether to retry (5xx: the server's final word). */
function failure(error: unknown, attempts: number) {
  observeEmails("failed");
  const answer = smtpAnswer(error);
  const permanent = /^5\d\d/.test(answer);
  const final = permanent || attempts >= DEFAULT_MAX_ATTEMPTS;
  return {
    permanent,
    data: { status: final ? "failed" : "retrying", attempts, lastError: answer.slice(0, 1000) },
  };
}

/**
 * The "email.send" job, an effect job: the SMTP round trip holds no
 * transaction. A crash between the send and the "sent" mark sends that
 * e-mail again (at least once).
 */
export async function sendOutboxEmail(payload: { id: string }, db: Db, job: { attempts: number } = { attempts: 1 }) {
  const { SMTP_URL, MAIL_FROM } = getConfig();
  if (!SMTP_URL) return keepInOutbox([payload], prismaBulk(db, dialectOf(db)));
  const row = await db.outboxEmail.findUnique({ where: { id: payload.id } });
  if (!row || row.status === "sent" || row.status === "failed") return;
  const sender = await senderOf(db, row.shopId, MAIL_FROM);
  try {
    await deliver(SMTP_URL, row, sender);
  } catch (error) {
    const { permanent, data } = failure(error, job.attempts);
    await db.outboxEmail.update({ where: { id: row.id }, data });
    // Thrown, the job is retried later with backoff (job-queue.server.ts).
    if (!permanent) throw error;
    return;
  }
  await db.outboxEmail.update({
    where: { id: row.id },
    data: { status: "sent", sentAt: new Date(), attempts: job.attempts, lastError: null },
  });
}

/**
 * Marks sent rows as their sends finish: each mark is written as soon as the
 * previous one is done, with every row that finished meanwhile (one
 * statement for several on a busy worker). So a crash re-sends at most the
 * messages in flight and those whose mark was being written, as with one job
 * per message, while a batch does not pay one statement per e-mail.
 */
function sentMarks(bulk: BulkSql) {
  const pending = new Map<number, { id: string; settle: (error: unknown) => void }[]>();
  let writing: Promise<void> | null = null;
  const write = async () => {
    while (pending.size) {
      const [attempts, group] = pending.entries().next().value!;
      pending.delete(attempts);
      let error: unknown = null;
      try {
        await bulk.updateIn(
          "OutboxEmail",
          { status: "sent", sentAt: new Date(), attempts, lastError: null },
          // The ids are this worker's claimed email.send jobs' rows, of any shop.
          { shopId: ANY_SHOP },
          "id",
          group.map((g) => g.id),
        );
      } catch (caught) {
        error = caught;
      }
      for (const g of group) g.settle(error);
    }
    writing = null;
  };
  return (id: string, attempts: number) =>
    new Promise<void>((resolve, reject) => {
      const group = pending.get(attempts) ?? [];
      group.push({ id, settle: (error) => (error ? reject(error) : resolve()) });
      pending.set(attempts, group);
      writing ??= write();
    });
}

const OUTBOX_COLUMNS = ["id", "shopId", "toAddress", "subject", "text", "html", "unsubscribeUrl", "status"] as const;

/**
 * The "email.send" jobs a worker claimed together (job-queue.server.ts,
 * effectBatch): the rows and their shops' senders read in two statements,
 * the messages sent over the pooled transport by `lanes` at once, each row
 * marked sent right after its send (sentMarks). Same outcomes as one job per
 * row: a row already sent or failed is skipped, a failed send is recorded
 * on its row and its job retried with backoff (not on a 5xx answer).
 * Answers null (done) or the error per payload.
 */
export async function sendOutboxEmails(
  payloads: { id: string }[],
  bulk: BulkSql,
  jobs: { attempts: number }[],
  lanes: number,
): Promise<unknown[]> {
  const { SMTP_URL, MAIL_FROM } = getConfig();
  const outcomes: unknown[] = payloads.map(() => null);
  if (!SMTP_URL) {
    try {
      await keepInOutbox(payloads, bulk);
    } catch (error) {
      outcomes.fill(error);
    }
    return outcomes;
  }
  const rows = new Map(
    (
      await bulk.from("OutboxEmail").findIn<OutboxRow>(
        [...OUTBOX_COLUMNS],
        { shopId: ANY_SHOP },
        "id",
        payloads.map((p) => p.id),
      )
    ).map((r) => [r.id, r] as const),
  );
  const shopIds = [...new Set([...rows.values()].map((r) => r.shopId).filter((id): id is string => id !== null))];
  const shops = new Map(
    (
      await bulk
        .from("Shop")
        .findIn<{ id: string; name: string; settings: string }>(["id", "name", "settings"], {}, "id", shopIds)
    ).map((s) => [s.id, senderFrom(s, MAIL_FROM)] as const),
  );
  const markSent = sentMarks(bulk);
  const queue = [...payloads.keys()];
  const lane = async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const row = rows.get(payloads[i]!.id);
      if (!row || row.status === "sent" || row.status === "failed") continue;
      const attempts = jobs[i]!.attempts;
      const sender = (row.shopId && shops.get(row.shopId)) || { from: MAIL_FROM, replyTo: null };
      try {
        await deliver(SMTP_URL, row, sender);
      } catch (error) {
        const { permanent, data } = failure(error, attempts);
        try {
          await bulk.updateIn("OutboxEmail", data, { shopId: row.shopId ?? ANY_SHOP }, "id", [row.id]);
          if (!permanent) outcomes[i] = error;
        } catch (markError) {
          outcomes[i] = markError;
        }
        continue;
      }
      try {
        await markSent(row.id, attempts);
      } catch (error) {
        // Sent but not marked: the retry sends it again (at least once).
        outcomes[i] = error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, payloads.length)) }, lane));
  return outcomes;
}

/**
 * The claimed email.send jobs' rows without a mail server: they stay in the
 * outbox, marked in one statement per outcome (the demo shop's printed and
 * "logged", the others "unsent"), and the log says so once per batch. One
 * by one, a burst of 5,000 orders cost 5.3 ms of the worker's CPU per order
 * in three Prisma statements per e-mail, and wrote 20,000 log lines.
 */
async function keepInOutbox(payloads: { id: string }[], bulk: BulkSql) {
  const rows = (
    await bulk.from("OutboxEmail").findIn<OutboxRow>(
      [...OUTBOX_COLUMNS],
      { shopId: ANY_SHOP },
      "id",
      payloads.map((p) => p.id),
    )
  ).filter((row) => row.status !== "sent" && row.status !== "failed");
  const { demoShop } = getConfig();
  const shopIds = [...new Set(rows.map((r) => r.shopId).filter((id): id is string => id !== null))];
  const demoIds = new Set(
    demoShop && shopIds.length
      ? (await bulk.from("Shop").findIn<{ id: string; domain: string }>(["id", "domain"], {}, "id", shopIds))
          .filter((shop) => shop.domain === demoShop)
          .map((shop) => shop.id)
      : [],
  );
  const logged: OutboxRow[] = [];
  const unsent: OutboxRow[] = [];
  for (const row of rows) (row.shopId !== null && demoIds.has(row.shopId) ? logged : unsent).push(row);
  for (const row of logged) {
    // Indented, so no line of the message can pass for a log line.
    const body = row.text.replace(/^/gm, "    | ");
    console.info(
      `[mail] demo: SMTP_URL is unset, so this e-mail of the demo shop is printed here instead of sent ` +
        `(its links work; other shops' e-mails are never printed):\n` +
        `    to ${logText(row.toAddress)}: ${logText(row.subject)}\n${body}`,
    );
  }
  if (logged.length) {
    const ids = logged.map((row) => row.id);
    await bulk.updateIn("OutboxEmail", { status: "logged", sentAt: new Date() }, { shopId: ANY_SHOP }, "id", ids);
    observeEmails("logged", logged.length);
  }
  if (unsent.length) {
    const which = unsent.length === 1 ? `e-mail ${unsent[0]!.id}` : `${unsent.length} e-mails`;
    console.warn(
      `[mail] ${which} not sent: SMTP_URL is unset. Set SMTP_URL to send e-mails; ` +
        `the messages are kept in the OutboxEmail table.`,
    );
    const ids = unsent.map((row) => row.id);
    await bulk.updateIn("OutboxEmail", { status: "unsent" }, { shopId: ANY_SHOP }, "id", ids);
    observeEmails("unsent", unsent.length);
  }
}

/** What the SMTP server answered (or why there was no answer), for the delivery log. */
function smtpAnswer(error: unknown): string {
  const err = error as { response?: string; responseCode?: number; code?: string; message?: string };
  if (err.response) return err.response;
  return [err.code, err.message ?? String(error)].filter(Boolean).join(": ");
}

const mailSettingsSchema = z.object({
  mail: z
    .object({
      fromName: z.string().max(100).optional(),
      replyTo: z.string().email().max(254).optional(),
    })
    .optional(),
});

/** The shop's sender name and reply-to (Shop.settings.mail), on the app's sending address. */
async function senderOf(db: Db, shopId: string | null, mailFrom: string): Promise<Sender> {
  const shop = shopId
    ? await db.shop.findUnique({ where: { id: shopId }, select: { name: true, settings: true } })
    : null;
  if (!shop) return { from: mailFrom, replyTo: null };
  return senderFrom(shop, mailFrom);
}

function senderFrom(shop: { name: string; settings: string }, mailFrom: string): Sender {
  const parsed = mailSettingsSchema.safeParse(safeJson(shop.settings));
  const mail = parsed.success ? parsed.data.mail : undefined;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const name = mail?.fromName || shop.name;
  return { from: { name, address }, replyTo: mail?.replyTo ?? null };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
