import type { Tx } from "../../db/transaction";
import { AppError } from "../../lib/errors";
import { affiliateLookup } from "./flow-actions";

/** The shop's affiliate a Flow action names (by e-mail, referral code or id); 404 when there is none. */
export async function findAffiliate(tx: Tx, shopId: string, ref: string) {
  const where = affiliateLookup(ref);
  const select = { id: true, status: true } as const;
  const found =
    "email" in where
      ? await tx.affiliate.findFirst({ where: { shopId, email: where.email }, select })
      : ((await tx.affiliate.findFirst({ where: { shopId, referralCode: where.referralCode }, select })) ??
        (await tx.affiliate.findFirst({ where: { shopId, id: where.id }, select })));
  if (!found) throw new AppError("not_found", `No affiliate ${ref} in this shop.`);
  return found;
}
