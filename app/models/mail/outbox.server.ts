import nodemailer, { type Transporter } from "nodemailer";
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
}

export async function queueEmail(tx: Tx, email: OutgoingEmail) {
  const row = await tx.outboxEmail.create({
    data: { shopId: email.shopId, toAddress: email.to, subject: email.subject, text: email.text },
    select: { id: true },
  });
  await enqueueJob(tx, "email.send", { id: row.id });
  return row.id;
}

const transports = new Map<string, Transporter>();

function smtpTransport(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/**
 * The "email.send" job, an effect job: the SMTP round trip holds no
 * transaction. A crash between the send and the "sent" mark sends that
 * e-mail again (at least once).
 */
export async function sendOutboxEmail(payload: { id: string }, db: Db) {
  const row = await db.outboxEmail.findUnique({ where: { id: payload.id } });
  if (!row || row.status === "sent") return;
  const { SMTP_URL, MAIL_FROM } = getConfig();
  if (SMTP_URL) {
    // A failure throws: the job is retried later with backoff.
    await smtpTransport(SMTP_URL).sendMail({
      from: MAIL_FROM,
      to: row.toAddress,
      subject: row.subject,
      text: row.text,
    });
    await db.outboxEmail.update({ where: { id: row.id }, data: { status: "sent", sentAt: new Date() } });
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
