import { Socket } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { z } from "zod";
import { DEFAULT_MAX_ATTEMPTS } from "../../db/job-queue.server";
import { getConfig } from "../../config.server";
import { getDb, type Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { logText } from "../../lib/log-text";
import { enqueueJob } from "../jobs/enqueue.server";

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

export async function queueEmail(tx: Tx, email: OutgoingEmail) {
  const row = await tx.outboxEmail.create({
    data: {
      shopId: email.shopId,
      toAddress: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html ?? null,
      kind: email.kind ?? null,
      dedupeKey: email.dedupeKey ?? null,
      unsubscribeUrl: email.unsubscribeUrl ?? null,
      isTest: email.isTest ?? false,
    },
    select: { id: true },
  });
  await enqueueJob(tx, "email.send", { id: row.id });
  return row.id;
}

const transports = new Map<string, Transporter>();

// email.send runs several jobs at once (registry.server.ts): a pool keeps a
// few SMTP connections open and reuses them, instead of a TCP and SMTP
// handshake per message (an explicit pool=false in SMTP_URL still wins).
// On a plain connection Nagle's algorithm is turned off: SMTP is a dialogue
// of short lines, and with it each message stalled on delayed ACKs (about
// 50 ms per message on loopback, 20 e-mails/s per connection; without it,
// about 140/s). An smtps:// connection keeps nodemailer's own TLS socket.
function smtpTransport(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    const parsed = parseConnectionUrl(url) as SMTPPool.Options | (SMTPTransport.Options & { pool: false });
    const options = { ...parsed, pool: (parsed as { pool?: boolean }).pool ?? true } as SMTPPool.Options;
    if (!options.secure) {
      options.getSocket = (_options, callback) => {
        const socket = new Socket();
        socket.setNoDelay(true);
        callback(null, { socket } as never);
      };
    }
    transport = nodemailer.createTransport(options);
    transports.set(url, transport);
  }
  return transport;
}

/**
 * The "email.send" job, an effect job: the SMTP round trip holds no
 * transaction. A crash between the send and the "sent" mark sends that
 * e-mail again (at least once).
 */
export async function sendOutboxEmail(payload: { id: string }, db: Db, job: { attempts: number } = { attempts: 1 }) {
  const row = await db.outboxEmail.findUnique({ where: { id: payload.id } });
  if (!row || row.status === "sent" || row.status === "failed") return;
  const { SMTP_URL, MAIL_FROM } = getConfig();
  if (SMTP_URL) {
    const sender = await senderOf(db, row.shopId, MAIL_FROM);
    try {
      await smtpTransport(SMTP_URL).sendMail({
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
    } catch (error) {
      const answer = smtpAnswer(error);
      // A 5xx answer is the server's final word (unknown mailbox, refused): no retry.
      const permanent = /^5\d\d/.test(answer);
      const final = permanent || job.attempts >= DEFAULT_MAX_ATTEMPTS;
      await db.outboxEmail.update({
        where: { id: row.id },
        data: { status: final ? "failed" : "retrying", attempts: job.attempts, lastError: answer.slice(0, 1000) },
      });
      // Thrown, the job is retried later with backoff (job-queue.server.ts).
      if (!permanent) throw error;
      return;
    }
    await db.outboxEmail.update({
      where: { id: row.id },
      data: { status: "sent", sentAt: new Date(), attempts: job.attempts, lastError: null },
    });
    return;
  }
  if (await isDemoShop(db, row.shopId)) {
    // Indented, so no line of the message can pass for a log line.
    const body = row.text.replace(/^/gm, "    | ");
    console.info(
      `[mail] demo: SMTP_URL is unset, so this e-mail of the demo shop is printed here instead of sent ` +
        `(its links work; other shops' e-mails are never printed):\n` +
        `    to ${logText(row.toAddress)}: ${logText(row.subject)}\n${body}`,
    );
    await db.outboxEmail.update({ where: { id: row.id }, data: { status: "logged", sentAt: new Date() } });
    return;
  }
  console.warn(
    `[mail] e-mail ${row.id} not sent: SMTP_URL is unset. Set SMTP_URL to send e-mails; ` +
      `the message is kept in the OutboxEmail table.`,
  );
  await db.outboxEmail.update({ where: { id: row.id }, data: { status: "unsent" } });
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
async function senderOf(db: Db, shopId: string | null, mailFrom: string) {
  const shop = shopId
    ? await db.shop.findUnique({ where: { id: shopId }, select: { name: true, settings: true } })
    : null;
  if (!shop) return { from: mailFrom, replyTo: null };
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

async function isDemoShop(db: ReturnType<typeof getDb>, shopId: string | null): Promise<boolean> {
  const { DEMO_SHOP, SEED_DEMO } = getConfig();
  if (!shopId || SEED_DEMO === "0") return false;
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: { domain: true } });
  return shop?.domain === DEMO_SHOP;
}

/** The newest e-mail to an address (demo and tests read reset links from here). */
export function latestEmailTo(to: string) {
  return getDb().outboxEmail.findFirst({ where: { toAddress: to }, orderBy: { createdAt: "desc" } });
}
