import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { enqueueJob } from "../jobs/enqueue.server";
import { emailKey } from "./email-key";
import { readReferralProgram } from "./program-settings";
import { newShareToken, shareUrl } from "./share-link";

export interface AdvocateLink {
  advocateId: string;
  token: string;
  shareUrl: string;
  friendCode: string | null;
  firstName: string;
  /** Withdrawn, and left so (the call could not make the advocate active again). */
  withdrawn: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Finds or creates the advocate of (shop, emailKey(email)); links customerGid
 * when given; in shared mode queues referrals.friend-code when the advocate
 * has no code yet (same transaction). Refuses when the program is off, or
 * whoCanRefer is "customers" and the person has not ordered.
 *
 * Idempotent: the advocate is an upsert on its unique (shop, emailKey), so
 * two calls at once make one row (on a database that does not upsert
 * natively, the loser's unique violation (P2002) is the caller's to retry:
 * see proxy-advocate.server.ts). An advocate withdrawn earlier (the program
 * was switched off) is active again when they ask while the program is on
 * and `reactivate` is not false (the caller knows it is them); their share
 * link stays the same and their code is made again.
 */
export async function ensureAdvocate(
  tx: Tx,
  shop: { id: string; url: string; settings: string },
  input: {
    email: string;
    customerGid?: string | null;
    firstName?: string;
    hasOrdered: boolean;
    source: "widget" | "thank_you" | "account" | "admin" | "demo";
    reactivate?: boolean;
  },
): Promise<AdvocateLink> {
  const program = readReferralProgram(shop.settings);
  if (!program.enabled) throw new AppError("forbidden", msg("Account.Common:referFriend.widget.errors.off"));
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > 254)
    throw new AppError("validation_failed", msg("Account.Common:referFriend.widget.errors.email"), {
      fields: { email: msg("Account.Common:referFriend.widget.errors.email") },
    });
  if (program.whoCanRefer === "customers" && !input.hasOrdered)
    throw new AppError("forbidden", msg("Account.Common:referFriend.widget.errors.customersOnly"));

  const key = emailKey(email);
  const firstName = (input.firstName ?? "").trim().slice(0, 100);
  let advocate = await tx.referralAdvocate.upsert({
    where: { shopId_emailKey: { shopId: shop.id, emailKey: key } },
    create: {
      shopId: shop.id,
      email,
      emailKey: key,
      customerGid: input.customerGid || null,
      firstName,
      token: newShareToken(),
      source: input.source,
    },
    update: {},
  });
  const changes: {
    customerGid?: string;
    firstName?: string;
    disabledAt?: null;
    friendCode?: null;
    friendDiscountGid?: null;
  } = {};
  if (input.customerGid && advocate.customerGid !== input.customerGid) changes.customerGid = input.customerGid;
  if (firstName && !advocate.firstName) changes.firstName = firstName;
  const reactivate = input.reactivate !== false;
  if (advocate.disabledAt && !reactivate) {
    return {
      advocateId: advocate.id,
      token: advocate.token,
      shareUrl: shareUrl(shop.url, advocate.token),
      friendCode: null,
      firstName: advocate.firstName,
      withdrawn: true,
    };
  }
  if (advocate.disabledAt) Object.assign(changes, { disabledAt: null, friendCode: null, friendDiscountGid: null });
  if (Object.keys(changes).length)
    advocate = await tx.referralAdvocate.update({ where: { id: advocate.id }, data: changes });

  if (program.codeMode === "shared" && !advocate.friendCode)
    await enqueueJob(tx, "referrals.friend-code", { advocateId: advocate.id });

  return {
    advocateId: advocate.id,
    token: advocate.token,
    shareUrl: shareUrl(shop.url, advocate.token),
    friendCode: program.codeMode === "shared" ? advocate.friendCode : null,
    firstName: advocate.firstName,
    withdrawn: false,
  };
}
