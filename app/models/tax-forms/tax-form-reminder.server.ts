import type { Tx } from "../../db/transaction";
import { formatMoneyIn } from "../../i18n/format";
import { chunks } from "../../lib/chunks";
import { queueNotification } from "../notifications/compose-notification.server";
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
// affiliate's tax form. Looked for after every refresh of the pending
// payouts (a payout appears or grows) and when Settings › Tax forms is
// saved; one e-mail per held payout (its dedupe key), written to the outbox
// in the caller's transaction and sent after the commit.

export async function remindHeldForTaxForm(tx: Tx, shopId: string): Promise<number> {
  const shop = await tx.shop.findUnique({
    where: { id: shopId },
    select: { ...notificationShopSelect, uninstalledAt: true },
  });
  if (!shop || shop.uninstalledAt || taxSettingsOf(shop.settings).require === "off") return 0;
  const pending = await tx.payout.findMany({
    where: { shopId, status: "pending", amount: { gt: 0 } },
    select: { id: true, affiliateId: true, amount: true, currency: true },
  });
  const held = await taxFormHolds(tx, shopId, pending);
  if (held.size === 0) return 0;
  const heldPayouts = pending.filter((p) => held.has(p.id));
  const affiliates = new Map<string, AffiliateRow>();
  for (const part of chunks([...new Set(heldPayouts.map((p) => p.affiliateId))], 500)) {
    for (const a of await tx.affiliate.findMany({
      where: { shopId, id: { in: part }, status: "approved" },
      select: notificationAffiliateSelect,
    })) {
      affiliates.set(a.id, a);
    }
  }
  const url = `${accountOriginFor(shop)}/account/payouts/tax-form`;
  let queued = 0;
  for (const payout of heldPayouts) {
    const affiliate = affiliates.get(payout.affiliateId);
    if (!affiliate) continue;
    const language = languageOf(affiliate, shop);
    const id = await queueNotification(tx, {
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
    if (id) queued++;
  }
  return queued;
}
