import nodemailer, { type Transporter } from "nodemailer";
import { getConfig } from "../../config.server";
import { getDb, type Db } from "../../db.server";
import type { Tx } from "../../db/transaction";
import { enqueueJob } from "../jobs/enqueue.server";

// E-mails are written to the outbox inside the transaction that calls for
// them, with a job that delivers each one after the commit (a rolled-back
// request sends nothing; a crash after the commit still sends). With SMTP_URL
// the job sends over SMTP (nodemailer); without it, the message goes to the
// log, and the outbox row keeps it either way.

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
  } else {
    console.info(`[mail] to ${row.toAddress}: ${row.subject}\n${row.text}`);
  }
  await db.outboxEmail.update({ where: { id: row.id }, data: { status: "sent", sentAt: new Date() } });
}

/** The newest e-mail to an address (demo and tests read reset links from here). */
export function latestEmailTo(to: string) {
  return getDb().outboxEmail.findFirst({ where: { toAddress: to }, orderBy: { createdAt: "desc" } });
}
