import { getDb } from "../../db.server";
import { enqueueJob, registerJobHandler, type Tx } from "../jobs/job-queue.server";

// E-mails are written to the outbox inside the transaction that calls for
// them, with a job that delivers each one after the commit (a rolled-back
// request sends nothing; a crash after the commit still sends). No mail
// server is configured in this build: delivery writes the message to the log,
// and the outbox row keeps it, so the demo and the tests can read it.

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

export function registerMailJobs() {
  registerJobHandler("email.send", async (payload: { id: string }, tx) => {
    const row = await tx.outboxEmail.findUnique({ where: { id: payload.id } });
    if (!row || row.status === "sent") return;
    console.info(`[mail] to ${row.toAddress}: ${row.subject}\n${row.text}`);
    await tx.outboxEmail.update({ where: { id: row.id }, data: { status: "sent", sentAt: new Date() } });
  });
}

/** The newest e-mail to an address (demo and tests read reset links from here). */
export function latestEmailTo(to: string) {
  return getDb().outboxEmail.findFirst({ where: { toAddress: to }, orderBy: { createdAt: "desc" } });
}
