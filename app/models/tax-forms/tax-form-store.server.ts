import { randomUUID } from "node:crypto";
import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { openSecret, sealSecret } from "../../lib/secret-box.server";
import { chunks } from "../../lib/chunks";
import { maskTin, plainFieldsOf, tinsOf, type TaxFormInput, type TaxFormKind } from "./tax-form-schemas";

// Saving and reading an affiliate's tax form. The TINs are sealed with the
// app's secret box (AES-256-GCM under PAYPAL_SECRET_KEY) bound to the shop,
// the affiliate and the form, so a sealed value copied to another row does
// not open; what leaves the server is the kind of TIN and its last four.
// A new form supersedes the current one in the same transaction, by a
// compare-and-set on `currentKey` (the unique column holding the affiliate
// id while a form is current): two submissions at once cannot both become
// current, the loser gets a 409 and nothing is written.

const owner = (shopId: string, affiliateId: string, formId: string) => `tax-form:${shopId}:${affiliateId}:${formId}`;

export interface Signer {
  ip: string;
  userAgent: string;
}

export interface TaxFormView {
  id: string;
  kind: TaxFormKind;
  fields: Record<string, string>;
  tinType: string;
  tinMask: string;
  signatureName: string;
  signedAt: string;
}

const viewSelect = {
  id: true,
  kind: true,
  fields: true,
  tinType: true,
  tinLast4: true,
  signatureName: true,
  signedAt: true,
} as const;

function toView(row: {
  id: string;
  kind: string;
  fields: string;
  tinType: string;
  tinLast4: string;
  signatureName: string;
  signedAt: Date;
}): TaxFormView {
  return {
    id: row.id,
    kind: row.kind as TaxFormKind,
    fields: JSON.parse(row.fields) as Record<string, string>,
    tinType: row.tinType,
    tinMask: maskTin(row.tinLast4),
    signatureName: row.signatureName,
    signedAt: row.signedAt.toISOString(),
  };
}

/** The affiliate's current form, masked (what the account page and the PDF show); null when none. */
export async function currentTaxForm(db: ShopDb | Tx, affiliateId: string): Promise<TaxFormView | null> {
  const row = await db.taxForm.findFirst({ where: { affiliateId, currentKey: affiliateId }, select: viewSelect });
  return row ? toView(row) : null;
}

/**
 * Signs a new form: the current one is superseded and the new one becomes
 * current. Payouts held for a missing form are not stored as held (the hold
 * is worked out when paying), so they are payable from this commit on.
 */
export async function signTaxForm(
  db: ShopDb,
  affiliateId: string,
  form: TaxFormInput,
  signer: Signer,
  now = new Date(),
): Promise<TaxFormView> {
  const id = randomUUID();
  const { tins, tinType, last4 } = tinsOf(form);
  const tinSealed = sealSecret(JSON.stringify(tins), owner(db.$shopId, affiliateId, id));
  return db.$transaction(async (tx) => {
    const current = await tx.taxForm.findFirst({
      where: { affiliateId, currentKey: affiliateId },
      select: { id: true },
    });
    if (current) {
      const moved = await tx.taxForm.updateMany({
        where: { id: current.id, currentKey: affiliateId },
        data: { currentKey: null, supersededAt: now },
      });
      if (moved.count !== 1) throw new AppError("conflict", msg("Account.TaxForm:errors.changedMeanwhile"));
    }
    let row;
    try {
      row = await tx.taxForm.create({
        data: {
          id,
          shopId: db.$shopId,
          affiliateId,
          kind: form.kind,
          currentKey: affiliateId,
          fields: JSON.stringify(plainFieldsOf(form)),
          tinSealed,
          tinType,
          tinLast4: last4,
          signatureName: form.signatureName,
          signedAt: now,
          signerIp: signer.ip.slice(0, 64),
          signerAgent: signer.userAgent.slice(0, 500),
        },
        select: viewSelect,
      });
    } catch (e) {
      // Another submission became current first (the unique currentKey).
      if ((e as { code?: string }).code === "P2002") {
        throw new AppError("conflict", msg("Account.TaxForm:errors.changedMeanwhile"));
      }
      throw e;
    }
    return toView(row);
  });
}

/** The TINs in full: only for the merchant's 1099-NEC export (an admin's download). */
export function openTins(row: { id: string; shopId: string; affiliateId: string; tinSealed: string }) {
  return JSON.parse(openSecret(row.tinSealed, owner(row.shopId, row.affiliateId, row.id))) as {
    tin: string;
    foreignTin: string;
  };
}

/** Affiliate ids (of those given) that have a current form of any kind. */
export async function affiliatesWithForm(
  tx: Tx | ShopDb,
  shopId: string,
  affiliateIds: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks([...new Set(affiliateIds)], 500)) {
    const rows = await tx.taxForm.findMany({
      where: { shopId, currentKey: { in: part } },
      select: { affiliateId: true },
    });
    for (const r of rows) found.add(r.affiliateId);
  }
  return found;
}

/** The current form with the signature's circumstances (the affiliate's PDF copy); null when none. */
export async function currentTaxFormSigned(db: ShopDb, affiliateId: string) {
  const row = await db.taxForm.findFirst({
    where: { affiliateId, currentKey: affiliateId },
    select: { ...viewSelect, signerIp: true, signerAgent: true },
  });
  return row ? { form: toView(row), signerIp: row.signerIp, signerAgent: row.signerAgent } : null;
}
