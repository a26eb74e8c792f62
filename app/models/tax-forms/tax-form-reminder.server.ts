import type { Db } from "../../db.server";
import { prismaBulk } from "../../db/bulk-sql.server";
import { dialectOf } from "../../db/dialect";
import type { Tx } from "../../db/transaction";
import { formatMoneyIn } from "../../i18n/format";
import { chunks } from "../../lib/chunks";
import { queueUnlessWaiting } from "../jobs/enqueue.server";
import { queueEmails, type OutgoingEmail } from "../mail/outbox.server";
import { prepareNotification } from "../notifications/compose-notification.server";
import {
  affiliateValues,
  languageOf,
  notificationAffiliateSelect,
  notificationShopSelect,
  type AffiliateRow,
} from "../notifications/notification-values.server";
import { accountOriginFor } from "../portal/portal-context.server";
import { taxFormHolds } from "./tax-form-hold.server";
import { taxSettingsOf } from "./tax-requirement";

// The "affiliate.tax_form_reminder" e-mail: a pending payout waits for the
// affiliate's tax form. Looked for by a job of its own (tax-forms.remind),
// queued by every refresh of the pending payouts (a payout appears or grows)
// and when Settings › Tax forms is saved. The job reads and renders outside
// any transaction (not under SQLite's write lock, which the refresh and the
// settings save hold), then writes one e-mail per held payout (its dedupe
// key) with its "done" mark; the e-mails are sent after the commit.

export const TAX_FORM_REMIND_JOB = "tax-forms.remind" as const;

/** Queues the shop's reminders in the caller's transaction, unless a look is already waiting to start. */
export function requestTaxFormReminders(tx: Tx, shopId: string, cause: string) {
  return queueUnlessWaiting(prismaBulk(tx, dialectOf(tx)), TAX_FORM_REMIND_JOB, { shopId }, shopId, cause);
}

/** The tax-forms.remind job's plan: the reminders composed, and the write that queues them (null: none). */
export async function planTaxFormReminders(db: Db, shopId: string): Promise<((tx: Tx) => Promise<number>) | null> {
  const mails = await composeTaxFormReminders(db, shopId);
  if (mails.length === 0) return null;
  // A reminder queued meanwhile (its dedupe key) is skipped.
  return (tx) => queueEmails(tx, mails);
}

async function composeTaxFormReminders(db: Db, shopId: string): Promise<OutgoingEmail[]> {
  const shop = await db.shop.findUnique({
    where: { id: shopId },
    select: { ...notificationShopSelect, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt || taxSettingsOf(shop.settings).require === "off") return [];
  const pending = await db.payout.findMany({
    where: { shopId, status: "pending", amount: { gt: 0 } },
    select: { id: true, affiliateId: true, amount: true, currency: true },
  });
  const held = await taxFormHolds(db, shopId, pending);
  if (held.size === 0) return [];
  const heldPayouts = pending.filter((p) => held.has(p.id));
  const affiliates = new Map<string, AffiliateRow>();
  for (const part of chunks([...new Set(heldPayouts.map((p) => p.affiliateId))], 500)) {
    for (const a of await db.affiliate.findMany({
      where: { shopId, id: { in: part }, status: "approved" },
      select: notificationAffiliateSelect,
    })) {
      affiliates.set(a.id, a);
    }
  }
  const url = `${accountOriginFor(shop)}/account/payouts/tax-form`;
  const mails: OutgoingEmail[] = [];
  for (const payout of heldPayouts) {
    const affiliate = affiliates.get(payout.affiliateId);
    if (!affiliate) continue;
    const language = languageOf(affiliate, shop);
    const mail = await prepareNotification(db, {
      shop,
      key: "affiliate.tax_form_reminder",
      to: affiliate.email,
      language,
      values: {
        ...affiliateValues(shop, affiliate),
        "payout.amount": formatMoneyIn(language.tag, payout.amount, payout.currency),
        tax_form_url: url,
      },
      dedupeBy: `tax-form-hold:${payout.id}:affiliate.tax_form_reminder`,
    });
    if (mail) mails.push(mail);
  }
  return mails;
}
