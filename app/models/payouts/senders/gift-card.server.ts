import { createHmac } from "node:crypto";
import { getConfig } from "../../../config.server";
import type { Db } from "../../../db.server";
import type { AdminClient } from "../../shopify/admin-client.server";
import { GIFT_CARD_CREATE, GIFT_CARDS_BY_CODE } from "../../shopify/admin-operations";
import { decimalAmount } from "../csv/payout-csv-format";
import { markPayoutPaid } from "../settle-payout.server";
import { giftCardMarker, maskGiftCardCode } from "../gift-card-code";
import { failPayout, recordAttempt, shopAdminSender, userErrorText, type OpenPayout } from "./shop-admin.server";

// Paying with a Shopify gift card (giftCardCreate) for the payout's amount.
// The card is not assigned to a customer record (that needs write_customers,
// which the app does not ask for): its code is the payment, e-mailed to the
// affiliate and shown on their payouts page.
//
// Safe to repeat, like discount codes (ADR 028): the card's code is derived
// from the payout's id (an HMAC with the app's secret) and stored on the
// payout, with the attempt, before Shopify is asked. A run that finds the
// code stored looks it up (giftCards searches codes) and settles the payout
// with the card the crashed run made, which it knows by the payout's marker in
// the card's note; Shopify's uniqueness of codes (TAKEN) is the last guard.
// giftCardCreate takes no idempotency key.

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // letters and digits only (Shopify's rule), no 0/O, 1/I

/** The payout's card code: 16 symbols of 32 (80 bits), within Shopify's 8–20 letters and digits. */
export function payoutGiftCardCode(payoutId: string, secret = getConfig().SESSION_SECRET): string {
  const digest = createHmac("sha256", secret).update(`payout-gift-card:${payoutId}`).digest();
  let code = "";
  for (let i = 0; i < 16; i++) code += ALPHABET[digest[i]! % ALPHABET.length];
  return code;
}

/** The card Shopify holds for this payout's code, made by this app for this payout, or null. */
async function issuedCard(client: AdminClient, payoutId: string, code: string) {
  const { data } = await client.run(GIFT_CARDS_BY_CODE, { query: code });
  return (
    data.giftCards.nodes.find(
      (c) => c.lastCharacters.toUpperCase() === code.slice(-4) && (c.note ?? "").includes(giftCardMarker(payoutId)),
    ) ?? null
  );
}

async function settle(db: Db, shopId: string, payoutId: string, cardId: string, code: string) {
  await db.$transaction(async (tx) => {
    await tx.payout.updateMany({ where: { id: payoutId, shopId }, data: { giftCardCode: code } });
    await markPayoutPaid(tx, shopId, payoutId, { reference: cardId, actor: "system", by: "sender" });
  });
}

async function issueOne(db: Db, client: AdminClient, shopId: string, shopCurrency: string, p: OpenPayout) {
  // The card is issued in the shop's currency: a payout in another one is paid another way.
  if (p.currency !== shopCurrency) return failPayout(db, shopId, p.id, `gift_card_currency:${p.currency}`);
  const code = p.giftCardCode ?? payoutGiftCardCode(p.id);
  if (p.giftCardCode) {
    const found = await issuedCard(client, p.id, code);
    if (found) return settle(db, shopId, p.id, found.id, code);
  }
  await recordAttempt(db, shopId, p, `gift_card_requested:${maskGiftCardCode(code)}`, {
    sentAt: new Date(),
    giftCardCode: code,
  });
  const name = `${p.affiliate.firstName} ${p.affiliate.lastName}`.trim() || p.affiliate.email;
  const { data } = await client.run(GIFT_CARD_CREATE, {
    input: {
      code,
      initialAmount: { amount: decimalAmount(p.amount, p.currency), currencyCode: p.currency },
      note: `Affiliate payout: ${name} <${p.affiliate.email}> (${giftCardMarker(p.id)})`,
    },
  });
  const answer = data.giftCardCreate;
  if (answer.giftCard && !answer.userErrors.length) return settle(db, shopId, p.id, answer.giftCard.id, code);
  // "Code has already been taken": a run that crashed after Shopify made the
  // card (or one that overlapped) got there first; that card is this payout's.
  if (answer.userErrors.some((e) => e.code === "TAKEN")) {
    const found = await issuedCard(client, p.id, code);
    if (found) return settle(db, shopId, p.id, found.id, code);
  }
  await failPayout(db, shopId, p.id, `shopify_refused:${userErrorText(answer.userErrors)}`);
}

export const sendGiftCards = shopAdminSender(issueOne);
