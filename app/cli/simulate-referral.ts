import { parseArgs } from "node:util";
import {
  INVITE_DEVICE_ATTRIBUTE,
  INVITE_PARAM,
  INVITE_TOKEN_ATTRIBUTE,
  isShareToken,
} from "../models/referrals/share-link";
import type { PlaceOrderOptions } from "../simulator/orders";

// The arguments of `npm run simulate` and the friend's checkout that
// `npm run simulate -- referral` places: pure, so tests/unit can check both
// without a store or an app.

export const SIMULATE_OPTIONS = {
  url: { type: "string" },
  shop: { type: "string" },
  code: { type: "string" },
  click: { type: "string" },
  coupon: { type: "string" },
  "discount-code": { type: "string" },
  "friend-code": { type: "string" },
  invite: { type: "string" },
  device: { type: "string" },
  email: { type: "string" },
  customer: { type: "string" },
  product: { type: "string", multiple: true },
  amount: { type: "string" },
  items: { type: "string" },
  quantity: { type: "string" },
  order: { type: "string" },
  lines: { type: "string" },
  path: { type: "string" },
  title: { type: "string" },
  price: { type: "string" },
  status: { type: "string" },
  collection: { type: "string", multiple: true },
  count: { type: "string" },
} as const;

export function parseSimulateArgs(args: string[]) {
  return parseArgs({ args, allowPositionals: true, options: SIMULATE_OPTIONS });
}

export type SimulateValues = ReturnType<typeof parseSimulateArgs>["values"];

/** A mistake in the command line: printed as it is, exit code 2. */
export class UsageError extends Error {}

const DEVICE = /^[A-Za-z0-9_-]{1,64}$/;
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** `order --count N`: how many orders one command places (1 to 1,000). */
export function orderCount(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError("--count must be a whole number from 1 to 1000.");
  return n;
}

function count(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`--${name} must be a whole number from 1 to 100.`);
  return n;
}

/**
 * The friend's order: the friend code applied at checkout (as Shopify applies
 * a code discount), and/or the advocate's invite token (and the device id)
 * in the cart attributes the storefront script sets, having landed on the
 * share link. Without --customer the friend is a new customer.
 */
export function referralOrderOptions(values: SimulateValues): PlaceOrderOptions {
  const friendCode = values["friend-code"]?.trim() || undefined;
  const invite = values.invite?.trim() || undefined;
  const device = values.device?.trim() || undefined;
  if (!friendCode && !invite)
    throw new UsageError(
      "referral needs --friend-code CODE (the code the friend types) or --invite TOKEN (the share link's token), or both.",
    );
  if (invite && !isShareToken(invite))
    throw new UsageError(
      `--invite ${invite} is not a share token (6 to 32 of a-z and 0-9, as in ?${INVITE_PARAM}=...).`,
    );
  if (device && !DEVICE.test(device)) throw new UsageError("--device must be 1 to 64 of A-Z, a-z, 0-9, _ and -.");
  if (values.amount !== undefined && !AMOUNT.test(values.amount))
    throw new UsageError("--amount must be an amount such as 80.00.");
  const attributes = [
    ...(invite ? [{ name: INVITE_TOKEN_ATTRIBUTE, value: invite }] : []),
    ...(device ? [{ name: INVITE_DEVICE_ATTRIBUTE, value: device }] : []),
  ];
  return {
    discountCode: friendCode,
    attributes,
    landingSite: invite ? `/?${INVITE_PARAM}=${invite}` : "/",
    customer: values.customer ?? values.email,
    products: values.product,
    items: count("items", values.items),
    quantity: count("quantity", values.quantity),
    amount: values.amount,
  };
}
