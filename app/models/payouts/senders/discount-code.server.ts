import { createHmac } from "node:crypto";
import { getConfig } from "../../../config.server";
import type { Db } from "../../../db.server";
import type { AdminClient } from "../../shopify/admin-client.server";
import { CODE_DISCOUNT_BY_CODE, DISCOUNT_CODE_BASIC_CREATE } from "../../shopify/admin-operations";
import { decimalAmount } from "../csv/payout-csv-format";
import { markPayoutPaid } from "../settle-payout.server";
import {
  customerOf,
  failPayout,
  recordAttempt,
  shopAdminSender,
  userErrorText,
  type OpenPayout,
} from "./shop-admin.server";

// Paying with a single-use discount code for the payout's amount: an amount
// off the whole order, one use, for the affiliate's customer account when
// they shop in the store (else anyone holding the code, which only the
// affiliate is shown). The code is the payment: the payout is paid when the
// code exists, and the code is stored on it for the affiliate to see.
//
// Safe to repeat: each payout's code is derived from its id (an HMAC with the
// app's secret, so no one can guess another affiliate's code) and stored on
// the payout before Shopify is asked; a rerun looks the code up and finds the
// discount the crashed run created instead of making a second one.

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I: read aloud and typed by hand

/** The payout's code, e.g. "PAY-7K3M9QXW2HRT" (12 characters of 32 symbols: 60 bits). */
export function payoutDiscountCode(payoutId: string, secret = getConfig().SESSION_SECRET): string {
  const digest = createHmac("sha256", secret).update(`payout-discount-code:${payoutId}`).digest();
  let code = "";
  for (let i = 0; i < 12; i++) code += ALPHABET[digest[i]! % ALPHABET.length];
  return `PAY-${code}`;
}

async function existingCode(client: AdminClient, code: string) {
  const { data } = await client.run(CODE_DISCOUNT_BY_CODE, { code });
  return data.codeDiscountNodeByCode;
}

async function settle(db: Db, shopId: string, payoutId: string, discountId: string, code: string) {
  await db.$transaction(async (tx) => {
    await tx.payout.updateMany({ where: { id: payoutId, shopId }, data: { discountCode: code } });
    await markPayoutPaid(tx, shopId, payoutId, { reference: discountId, note: code, actor: "system", by: "sender" });
  });
}

async function createOne(db: Db, client: AdminClient, shopId: string, shopCurrency: string, p: OpenPayout) {
  // A discount's amount is in the shop's currency: a payout in another one cannot be paid this way.
  if (p.currency !== shopCurrency) return failPayout(db, shopId, p.id, `currency_not_shop:${p.currency}`);
  const code = p.discountCode ?? payoutDiscountCode(p.id);
  if (p.discountCode) {
    const found = await existingCode(client, code);
    if (found) return settle(db, shopId, p.id, found.id, code);
  }
  const customerId = await customerOf(db, client, shopId, p);
  await recordAttempt(db, shopId, p, `discount_code_requested:${code}`, { sentAt: new Date(), discountCode: code });
  const name = `${p.affiliate.firstName} ${p.affiliate.lastName}`.trim() || p.affiliate.email;
  const { data } = await client.run(DISCOUNT_CODE_BASIC_CREATE, {
    input: {
      title: `Affiliate payout: ${name} (${code})`,
      code,
      startsAt: new Date().toISOString(),
      endsAt: null,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      context: customerId ? { customers: { add: [customerId] } } : { all: "ALL" },
      customerGets: {
        value: { discountAmount: { amount: decimalAmount(p.amount, p.currency), appliesOnEachItem: false } },
        items: { all: true },
      },
      combinesWith: { orderDiscounts: false, productDiscounts: true, shippingDiscounts: true },
    },
  });
  const answer = data.discountCodeBasicCreate;
  if (answer.codeDiscountNode && !answer.userErrors.length)
    return settle(db, shopId, p.id, answer.codeDiscountNode.id, code);
  // "Code must be unique": a run that crashed after Shopify made it (or a
  // concurrent one) got there first; that discount is this payout's.
  if (answer.userErrors.some((e) => e.code === "TAKEN")) {
    const found = await existingCode(client, code);
    if (found) return settle(db, shopId, p.id, found.id, code);
  }
  await failPayout(db, shopId, p.id, `shopify_refused:${userErrorText(answer.userErrors)}`);
}

export const sendDiscountCodes = shopAdminSender(createOne);
