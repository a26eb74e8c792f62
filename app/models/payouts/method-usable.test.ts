import { describe, expect, it } from "vitest";
import { methodRefusal, type MethodContext } from "./method-usable";
import type { PayoutMethod } from "./payout-states";

const all = new Set<PayoutMethod>(["paypal", "store_credit", "discount_code"]);
const ctx = (over: Partial<MethodContext>): MethodContext => ({
  paypalConnected: true,
  pricingPlan: "growth",
  senders: all,
  ...over,
});

describe("methodRefusal", () => {
  it.each([
    ["paypal", {}, null],
    ["paypal", { pricingPlan: "free" }, "plan"],
    ["paypal", { pricingPlan: null }, "plan"],
    ["paypal", { pricingPlan: "pro", paypalConnected: false }, "not_connected"],
    ["paypal", { senders: new Set<PayoutMethod>() }, "no_sender"],
    ["store_credit", { pricingPlan: "free" }, null],
    ["discount_code", { senders: new Set<PayoutMethod>(["paypal"]) }, "no_sender"],
    ["manual", { pricingPlan: "free", paypalConnected: false, senders: new Set<PayoutMethod>() }, null],
    ["csv", { pricingPlan: "free" }, null],
  ] as const)("%s with %j: %s", (method, over, expected) => {
    expect(methodRefusal(method, ctx(over))).toBe(expected);
  });
});
