import { createHmac, randomBytes } from "node:crypto";
import { decimalAmount } from "../payouts/csv/payout-csv-format";
import type { DiscountCodeBasicInput, DiscountCodeFreeShippingInput } from "../shopify/admin-operations";
import type { ReferralProgram } from "./program-settings";

// What a friend code is in Shopify, from the program's friend reward. Pure:
// the job (friend-codes.server.ts) sends the result.
//
// "First order only" is not part of the discount: the Admin API can limit a
// code to customers only through customer segments (a segment query such as
// number_of_orders = 0, made with segmentCreate and the read_customers
// scope), which the app does not manage. The order job enforces it instead
// (the existing_customer check), and the widget's text says "first order".

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I: read aloud and typed by hand

function symbols(bytes: Uint8Array, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += ALPHABET[bytes[i]! % ALPHABET.length];
  return out;
}

/**
 * The advocate's shared code, derived from the advocate's id with a keyed
 * hash: a rerun after a crash asks Shopify for the same code (and finds the
 * one the crashed run made) instead of making a second one.
 */
export function sharedFriendCode(advocateId: string, secret: string): string {
  return `FRIEND-${symbols(createHmac("sha256", secret).update(`referral-friend-code:${advocateId}`).digest(), 8)}`;
}

/** A unique-mode code (stored before Shopify is asked, so a rerun uses the same one). */
export function uniqueFriendCode(): string {
  return `FRIEND-${symbols(randomBytes(12), 12)}`;
}

export type FriendDiscount =
  { kind: "basic"; input: DiscountCodeBasicInput } | { kind: "free_shipping"; input: DiscountCodeFreeShippingInput };

export function friendDiscount(
  program: Pick<ReferralProgram, "friendReward">,
  options: { code: string; advocateEmail: string; currency: string; now: Date; singleUse: boolean },
): FriendDiscount {
  const reward = program.friendReward;
  const common = {
    title: `Refer a friend: ${options.advocateEmail} (${options.code})`.slice(0, 255),
    code: options.code,
    startsAt: options.now.toISOString(),
    endsAt:
      reward.expiryDays > 0 ? new Date(options.now.getTime() + reward.expiryDays * 86_400_000).toISOString() : null,
    // Shared: every friend once; unique: this friend's code, used once.
    usageLimit: options.singleUse ? 1 : null,
    appliesOncePerCustomer: true,
    context: { all: "ALL" as const },
    minimumRequirement:
      reward.minimumOrder > 0
        ? { subtotal: { greaterThanOrEqualToSubtotal: decimalAmount(reward.minimumOrder, options.currency) } }
        : null,
  };
  if (reward.type === "free_shipping")
    return {
      kind: "free_shipping",
      input: {
        ...common,
        destination: { all: true },
        combinesWith: { orderDiscounts: true, productDiscounts: true, shippingDiscounts: false },
      },
    };
  return {
    kind: "basic",
    input: {
      ...common,
      customerGets: {
        value:
          reward.type === "percentage"
            ? { percentage: reward.value / 10_000 }
            : { discountAmount: { amount: decimalAmount(reward.value, options.currency), appliesOnEachItem: false } },
        items: { all: true },
      },
      combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: true },
    },
  };
}
