import { currencyExponent } from "../../lib/money";

// The app's Shopify Flow triggers: each one's handle (its extension's
// `handle` in extensions/flow-trigger-*/shopify.extension.toml), its fields,
// and the pure builder of the payload it sends through flowTriggerReceive.
// The payload's keys are exactly the extension's field keys (Flow refuses a
// payload missing one); tests/unit/shopify-toml-files.test.ts holds the TOML
// files to this table. Nothing here reads the database.

export type FlowFieldType = "single_line_text_field" | "email" | "number_decimal";

export interface FlowField {
  key: string;
  type: FlowFieldType;
  description: string;
}

const field = (key: string, type: FlowFieldType, description: string): FlowField => ({ key, type, description });

const AFFILIATE_FIELDS = [
  field("Affiliate ID", "single_line_text_field", "The affiliate's id in the affiliate app"),
  field("Affiliate email", "email", "The affiliate's e-mail address"),
  field("Affiliate name", "single_line_text_field", "The affiliate's first and last name"),
  field("Referral code", "single_line_text_field", "The affiliate's referral code"),
];

const MONEY_FIELDS = [
  field("Amount", "number_decimal", "The amount, in the currency below"),
  field("Currency", "single_line_text_field", "ISO 4217 currency code"),
];

export const FLOW_TRIGGERS = {
  "affiliate-approved": {
    name: "Affiliate approved",
    description: "An affiliate was approved (by hand, by Flow, by an import or by an auto-approving campaign)",
    fields: [...AFFILIATE_FIELDS, field("Campaign ID", "single_line_text_field", "The affiliate's campaign")],
  },
  "sale-credited": {
    name: "Affiliate sale credited",
    description: "An order was credited to an affiliate and its commissions recorded",
    fields: [
      ...AFFILIATE_FIELDS,
      field("Order ID", "single_line_text_field", "The Shopify order's GraphQL id"),
      field("Order name", "single_line_text_field", "The order's name, such as #1001"),
      field("Order total", "number_decimal", "The order's total"),
      field("Commission", "number_decimal", "The affiliate's own commission on the order"),
      field("Currency", "single_line_text_field", "ISO 4217 currency code"),
    ],
  },
  "commission-approved": {
    name: "Affiliate commission approved",
    description: "A commission line was approved and counts toward the affiliate's next payout",
    fields: [
      ...AFFILIATE_FIELDS,
      field("Commission ID", "single_line_text_field", "The commission line's id in the affiliate app"),
      field("Commission kind", "single_line_text_field", "sale, upline, bonus or adjustment"),
      ...MONEY_FIELDS,
    ],
  },
  "payout-paid": {
    name: "Affiliate payout paid",
    description: "A payout to an affiliate was paid",
    fields: [
      ...AFFILIATE_FIELDS,
      field("Payout ID", "single_line_text_field", "The payout's id in the affiliate app"),
      field("Payout method", "single_line_text_field", "paypal, store_credit, gift_card, bank or manual"),
      ...MONEY_FIELDS,
    ],
  },
  "payout-failed": {
    name: "Affiliate payout failed",
    description: "A payout to an affiliate failed",
    fields: [
      ...AFFILIATE_FIELDS,
      field("Payout ID", "single_line_text_field", "The payout's id in the affiliate app"),
      field("Payout method", "single_line_text_field", "paypal, store_credit, gift_card, bank or manual"),
      ...MONEY_FIELDS,
      field("Failure reason", "single_line_text_field", "Why the payout failed, as the payout provider said it"),
    ],
  },
  "referral-fraud-flagged": {
    name: "Referral flagged as fraud",
    description: "A refer-a-friend order was held back by one of the program's fraud checks",
    fields: [
      field("Referral ID", "single_line_text_field", "The referral's id in the affiliate app"),
      field("Order ID", "single_line_text_field", "The Shopify order's GraphQL id"),
      field("Order name", "single_line_text_field", "The order's name, such as #1001"),
      field("Advocate email", "email", "The e-mail address of the customer who referred"),
      field("Fraud rule", "single_line_text_field", "The check that flagged the referral"),
    ],
  },
  "link-leak-flagged": {
    name: "Affiliate link leak flagged",
    description: "An affiliate's code or link was found used where it should not be (a coupon site, a leak)",
    fields: [
      ...AFFILIATE_FIELDS,
      field("Leaked code", "single_line_text_field", "The code or link that leaked"),
      field("Leak reason", "single_line_text_field", "What the leak watch saw"),
    ],
  },
} as const satisfies Record<string, { name: string; description: string; fields: FlowField[] }>;

export type FlowTriggerHandle = keyof typeof FLOW_TRIGGERS;
export const FLOW_TRIGGER_HANDLES = Object.keys(FLOW_TRIGGERS) as FlowTriggerHandle[];

/** A payload as Flow takes it: each field key with its value. */
export type FlowPayload = Record<string, string | number>;

/** Minor units as the decimal number Flow's number_decimal fields take (1250 USD → 12.5, 1250 JPY → 1250). */
export function flowDecimal(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

export interface FlowAffiliate {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  referralCode: string;
}

function affiliatePart(a: FlowAffiliate): FlowPayload {
  return {
    "Affiliate ID": a.id,
    "Affiliate email": a.email,
    "Affiliate name": `${a.firstName} ${a.lastName}`.trim(),
    "Referral code": a.referralCode,
  };
}

export function affiliateApprovedPayload(a: FlowAffiliate & { campaignId: string }): FlowPayload {
  return { ...affiliatePart(a), "Campaign ID": a.campaignId };
}

export function saleCreditedPayload(
  a: FlowAffiliate,
  order: { shopifyGid: string; name: string; total: number; currency: string },
  commission: number,
): FlowPayload {
  return {
    ...affiliatePart(a),
    "Order ID": order.shopifyGid,
    "Order name": order.name,
    "Order total": flowDecimal(order.total, order.currency),
    Commission: flowDecimal(commission, order.currency),
    Currency: order.currency,
  };
}

export function commissionApprovedPayload(
  a: FlowAffiliate,
  line: { commissionId: string; kind: string; amount: number; currency: string },
): FlowPayload {
  return {
    ...affiliatePart(a),
    "Commission ID": line.commissionId,
    "Commission kind": line.kind,
    Amount: flowDecimal(line.amount, line.currency),
    Currency: line.currency,
  };
}

export function payoutPaidPayload(
  a: FlowAffiliate,
  payout: { payoutId: string; method: string; amount: number; currency: string },
): FlowPayload {
  return {
    ...affiliatePart(a),
    "Payout ID": payout.payoutId,
    "Payout method": payout.method,
    Amount: flowDecimal(payout.amount, payout.currency),
    Currency: payout.currency,
  };
}

export function payoutFailedPayload(
  a: FlowAffiliate,
  payout: { payoutId: string; method: string; amount: number; currency: string; reason: string },
): FlowPayload {
  // Flow's single-line fields hold a line: a provider's long answer is cut.
  const reason = payout.reason.replace(/\s+/g, " ").trim().slice(0, 255);
  return { ...payoutPaidPayload(a, payout), "Failure reason": reason };
}

export function referralFraudPayload(referral: {
  id: string;
  orderGid: string;
  orderName: string;
  advocateEmail: string;
  blockedRule: string;
}): FlowPayload {
  return {
    "Referral ID": referral.id,
    "Order ID": referral.orderGid,
    "Order name": referral.orderName,
    "Advocate email": referral.advocateEmail,
    "Fraud rule": referral.blockedRule,
  };
}

export function linkLeakPayload(a: FlowAffiliate, leak: { code: string; reason: string }): FlowPayload {
  return { ...affiliatePart(a), "Leaked code": leak.code, "Leak reason": leak.reason.slice(0, 255) };
}
