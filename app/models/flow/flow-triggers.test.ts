import { describe, expect, it } from "vitest";
import {
  affiliateApprovedPayload,
  commissionApprovedPayload,
  flowDecimal,
  FLOW_TRIGGERS,
  linkLeakPayload,
  payoutFailedPayload,
  payoutPaidPayload,
  referralFraudPayload,
  saleCreditedPayload,
  type FlowPayload,
  type FlowTriggerHandle,
} from "./flow-triggers";

const ANNA = { id: "aff_1", email: "anna@example.com", firstName: "Anna", lastName: "Berg", referralCode: "ANNA7" };
const ANNA_PART = {
  "Affiliate ID": "aff_1",
  "Affiliate email": "anna@example.com",
  "Affiliate name": "Anna Berg",
  "Referral code": "ANNA7",
};

describe("flowDecimal", () => {
  it.each([
    [1250, "USD", 12.5],
    [1, "EUR", 0.01],
    [-995, "USD", -9.95],
    [1250, "JPY", 1250],
    [12345, "KWD", 12.345],
    [0, "USD", 0],
  ])("%i minor units of %s → %d", (minor, currency, decimal) => {
    expect(flowDecimal(minor, currency)).toBe(decimal);
  });
});

// Each builder with its expected payload: exactly the trigger's field keys.
const CASES: [FlowTriggerHandle, FlowPayload, FlowPayload][] = [
  [
    "affiliate-approved",
    affiliateApprovedPayload({ ...ANNA, campaignId: "camp_1" }),
    { ...ANNA_PART, "Campaign ID": "camp_1" },
  ],
  [
    "sale-credited",
    saleCreditedPayload(
      ANNA,
      { shopifyGid: "gid://shopify/Order/1001", name: "#1001", total: 10_000, currency: "EUR" },
      1500,
    ),
    {
      ...ANNA_PART,
      "Order ID": "gid://shopify/Order/1001",
      "Order name": "#1001",
      "Order total": 100,
      Commission: 15,
      Currency: "EUR",
    },
  ],
  [
    "commission-approved",
    commissionApprovedPayload(ANNA, { commissionId: "com_1", kind: "sale", amount: 499, currency: "USD" }),
    { ...ANNA_PART, "Commission ID": "com_1", "Commission kind": "sale", Amount: 4.99, Currency: "USD" },
  ],
  [
    "payout-paid",
    payoutPaidPayload(ANNA, { payoutId: "pay_1", method: "paypal", amount: 2000, currency: "JPY" }),
    { ...ANNA_PART, "Payout ID": "pay_1", "Payout method": "paypal", Amount: 2000, Currency: "JPY" },
  ],
  [
    "payout-failed",
    payoutFailedPayload(ANNA, {
      payoutId: "pay_2",
      method: "paypal",
      amount: 2000,
      currency: "USD",
      reason: "RECEIVER_UNREGISTERED:\n  the receiver has no account",
    }),
    {
      ...ANNA_PART,
      "Payout ID": "pay_2",
      "Payout method": "paypal",
      Amount: 20,
      Currency: "USD",
      "Failure reason": "RECEIVER_UNREGISTERED: the receiver has no account",
    },
  ],
  [
    "referral-fraud-flagged",
    referralFraudPayload({
      id: "ref_1",
      orderGid: "gid://shopify/Order/2",
      orderName: "#1002",
      advocateEmail: "ben@example.com",
      blockedRule: "self_referral",
    }),
    {
      "Referral ID": "ref_1",
      "Order ID": "gid://shopify/Order/2",
      "Order name": "#1002",
      "Advocate email": "ben@example.com",
      "Fraud rule": "self_referral",
    },
  ],
  [
    "link-leak-flagged",
    linkLeakPayload(ANNA, { code: "ANNA7", reason: "used on a coupon site" }),
    { ...ANNA_PART, "Leaked code": "ANNA7", "Leak reason": "used on a coupon site" },
  ],
];

describe("Flow trigger payloads", () => {
  it.each(CASES)("%s: the payload carries exactly the trigger's fields", (handle, built, expected) => {
    expect(built).toEqual(expected);
    expect(Object.keys(built).sort()).toEqual(FLOW_TRIGGERS[handle].fields.map((f) => f.key).sort());
  });

  it("covers every trigger", () => {
    expect(CASES.map(([handle]) => handle).sort()).toEqual(Object.keys(FLOW_TRIGGERS).sort());
  });

  it("keeps the name of an affiliate without a last name tidy, and cuts a long failure reason to one field", () => {
    expect(affiliateApprovedPayload({ ...ANNA, lastName: "", campaignId: "c" })["Affiliate name"]).toBe("Anna");
    const long = payoutFailedPayload(ANNA, {
      payoutId: "p",
      method: "bank",
      amount: 1,
      currency: "USD",
      reason: "x".repeat(400),
    });
    expect(String(long["Failure reason"])).toHaveLength(255);
  });

  it("gives numbers to number_decimal fields and text to the others", () => {
    for (const [handle, built] of CASES)
      for (const f of FLOW_TRIGGERS[handle].fields)
        expect(typeof built[f.key], `${handle} ${f.key}`).toBe(f.type === "number_decimal" ? "number" : "string");
  });
});
