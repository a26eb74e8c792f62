import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";

// An affiliate's codes from the app the shop used before (ReferralAlias, ADR
// 048): their old links keep crediting them until the merchant removes a
// code here. The shop's client keeps every read and write inside the shop.

/** The affiliate's old codes, for their admin page. */
export function listAliases(db: ShopDb, affiliateId: string) {
  return db.referralAlias.findMany({
    where: { affiliateId },
    orderBy: { code: "asc" },
    select: { id: true, code: true, source: true },
  });
}

/**
 * Removes one old code of the affiliate: a compare-and-set on the alias,
 * its affiliate and the code the merchant saw. One that is not the
 * affiliate's (or not the shop's) is 404; one removed meanwhile (another
 * tab, an import that moved it) is 409 and changes nothing.
 */
export async function removeAlias(db: ShopDb, affiliateId: string, alias: { id: string; code: string }) {
  const affiliate = await db.affiliate.findFirst({ where: { id: affiliateId }, select: { id: true } });
  if (!affiliate) throw new AppError("not_found", "No affiliate with this id.");
  const removed = await db.referralAlias.deleteMany({ where: { id: alias.id, affiliateId, code: alias.code } });
  if (removed.count === 0)
    throw new AppError("conflict", "This code is no longer the affiliate's: it was removed or changed meanwhile.");
  return { removedAlias: alias.code };
}
