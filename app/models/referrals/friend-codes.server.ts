import { getConfig } from "../../config.server";
import type { Db } from "../../db.server";
import { adminClientFor, type AdminClient } from "../shopify/admin-client.server";
import {
  CODE_DISCOUNT_BY_CODE,
  DISCOUNT_CODE_BASIC_CREATE,
  DISCOUNT_CODE_DELETE,
  DISCOUNT_CODE_FREE_SHIPPING_CREATE,
} from "../shopify/admin-operations";
import { friendDiscount, sharedFriendCode } from "./friend-discount";
import { readReferralProgram } from "./program-settings";

// The friend codes in Shopify (effect jobs: they wait on the Admin API with
// no transaction held, ADR 018).
//
// referrals.friend-code {advocateId} makes what the advocate's friends need:
// in shared mode the advocate's one code, in unique mode every requested
// single-use code not made yet. Exactly once, as payouts in codes do
// (ADR 028): a code's text is fixed before Shopify is asked (derived from the
// advocate's id, or stored on its ReferralFriendCode row), and every attempt
// looks the code up before creating it, so a rerun after a crash finds the
// discount the crashed run made.
//
// Unique mode makes one discount per code (usage limit 1). Shopify's bulk
// redeem codes share their discount's usage limit, so "one use per code"
// cannot be said for codes under one discount.
//
// referrals.withdraw {shopId, advocateId?} deletes the codes of withdrawn
// advocates (looking up codes whose discount id was never stored), and
// forgets them, so an advocate made active again gets theirs made anew.

const secret = () => getConfig().SESSION_SECRET;

async function findCode(client: AdminClient, code: string): Promise<string | null> {
  const { data } = await client.run(CODE_DISCOUNT_BY_CODE, { code });
  return data.codeDiscountNodeByCode?.id ?? null;
}

type Program = ReturnType<typeof readReferralProgram>;

/** The discount of `code`: the one that exists, else a new one. */
async function ensureCode(
  client: AdminClient,
  program: Program,
  options: { code: string; advocateEmail: string; currency: string; singleUse: boolean },
): Promise<string> {
  const found = await findCode(client, options.code);
  if (found) return found;
  const discount = friendDiscount(program, { ...options, now: new Date() });
  const answer =
    discount.kind === "free_shipping"
      ? (await client.run(DISCOUNT_CODE_FREE_SHIPPING_CREATE, { input: discount.input })).data
          .discountCodeFreeShippingCreate
      : (await client.run(DISCOUNT_CODE_BASIC_CREATE, { input: discount.input })).data.discountCodeBasicCreate;
  if (answer.codeDiscountNode && !answer.userErrors.length) return answer.codeDiscountNode.id;
  // "Code must be unique": a concurrent run made it first; that discount is this code's.
  if (answer.userErrors.some((e) => e.code === "TAKEN")) {
    const again = await findCode(client, options.code);
    if (again) return again;
  }
  throw new Error(`Shopify refused friend code ${options.code}: ${answer.userErrors.map((e) => e.message).join("; ")}`);
}

async function deleteDiscount(client: AdminClient, id: string): Promise<void> {
  const { data } = await client.run(DISCOUNT_CODE_DELETE, { id });
  const errors = data.discountCodeDelete.userErrors;
  // Already gone (deleted by the merchant, or by an earlier run) is what we want.
  if (errors.length && !errors.every((e) => /does not exist/i.test(e.message)))
    throw new Error(`Shopify refused to delete ${id}: ${errors.map((e) => e.message).join("; ")}`);
}

async function clientOf(shop: { domain: string; uninstalledAt: Date | null }): Promise<AdminClient | null> {
  if (shop.uninstalledAt) return null;
  const client = await adminClientFor(shop.domain);
  // No session yet (or any more): fail, so the queue tries again later.
  if (!client) throw new Error(`no Admin API session for ${shop.domain}`);
  return client;
}

export async function runFriendCodeJob(db: Db, payload: { advocateId: string }): Promise<void> {
  const advocate = await db.referralAdvocate.findUnique({
    where: { id: payload.advocateId },
    include: { shop: { select: { domain: true, currency: true, settings: true, uninstalledAt: true } } },
  });
  if (!advocate || advocate.disabledAt) return;
  const program = readReferralProgram(advocate.shop.settings);
  if (!program.enabled) return;
  const pending = await db.referralFriendCode.findMany({
    where: { advocateId: advocate.id, discountGid: null, usedOrderGid: null },
    orderBy: { createdAt: "asc" },
  });
  const needShared = program.codeMode === "shared" && !advocate.friendDiscountGid;
  if (!needShared && !pending.length) return;
  const client = await clientOf(advocate.shop);
  if (!client) return;
  const base = { advocateEmail: advocate.email, currency: advocate.shop.currency };

  if (needShared) {
    const code = sharedFriendCode(advocate.id, secret());
    const gid = await ensureCode(client, program, { ...base, code, singleUse: false });
    const stored = await db.referralAdvocate.updateMany({
      where: { id: advocate.id, disabledAt: null },
      data: { friendCode: code, friendDiscountGid: gid },
    });
    // Withdrawn while Shopify was asked: the withdrawal may have missed it.
    if (!stored.count) await deleteDiscount(client, gid);
  }
  for (const row of pending) {
    const gid = await ensureCode(client, program, { ...base, code: row.code, singleUse: true });
    await db.referralFriendCode.updateMany({ where: { id: row.id }, data: { discountGid: gid } });
    const still = await db.referralAdvocate.count({ where: { id: advocate.id, disabledAt: null } });
    if (!still) await deleteDiscount(client, gid);
  }
}

export async function runWithdrawJob(db: Db, payload: { shopId: string; advocateId?: string }): Promise<void> {
  const shop = await db.shop.findUnique({
    where: { id: payload.shopId },
    select: { domain: true, uninstalledAt: true },
  });
  if (!shop) return;
  const advocates = await db.referralAdvocate.findMany({
    where: {
      shopId: payload.shopId,
      disabledAt: { not: null },
      ...(payload.advocateId ? { id: payload.advocateId } : {}),
    },
    select: {
      id: true,
      friendCode: true,
      friendDiscountGid: true,
      friendCodes: { where: { usedOrderGid: null }, select: { id: true, code: true, discountGid: true } },
    },
    orderBy: { id: "asc" },
  });
  if (!advocates.length) return;
  // An uninstalled shop's discounts went with the app's access; nothing to delete.
  const client = await clientOf(shop);
  if (!client) return;
  for (const a of advocates) {
    const gid = a.friendDiscountGid ?? (await findCode(client, a.friendCode ?? sharedFriendCode(a.id, secret())));
    if (gid) await deleteDiscount(client, gid);
    if (a.friendCode || a.friendDiscountGid)
      await db.referralAdvocate.updateMany({
        where: { id: a.id, disabledAt: { not: null } },
        data: { friendCode: null, friendDiscountGid: null },
      });
    for (const c of a.friendCodes) {
      const codeGid = c.discountGid ?? (await findCode(client, c.code));
      if (codeGid) await deleteDiscount(client, codeGid);
      if (c.discountGid) await db.referralFriendCode.updateMany({ where: { id: c.id }, data: { discountGid: null } });
    }
  }
}
