import { describe, expect, it } from "vitest";
import {
  batchFromStates,
  canBatchTransition,
  canTransition,
  fromStatesFor,
  isPayoutMethod,
  isSendingMethod,
  merchantActionsFor,
  openKeyOf,
  PAYOUT_STATUSES,
  payoutTransition,
} from "./payout-states";

describe("payout transitions", () => {
  it.each([
    ["pending", "processing", true],
    ["pending", "paid", true],
    ["pending", "cancelled", true],
    ["pending", "failed", false],
    ["processing", "paid", true],
    ["processing", "failed", true],
    ["processing", "cancelled", true],
    ["processing", "pending", false],
    ["paid", "failed", false],
    ["paid", "pending", false],
    // PayPal's late SUCCESS (reconcile-payout.server.ts).
    ["failed", "paid", true],
    ["failed", "pending", false],
    ["cancelled", "pending", false],
    ["pending", "nonsense", false],
    ["nonsense", "paid", false],
  ])("%s → %s: %s", (from, to, expected) => {
    expect(canTransition(from, to)).toBe(expected);
  });

  it("ends in paid; failed and cancelled only PayPal's late answer reopens", () => {
    const final = PAYOUT_STATUSES.filter((s) => PAYOUT_STATUSES.every((t) => !canTransition(s, t)));
    expect(final).toEqual(["paid"]);
    expect(PAYOUT_STATUSES.filter((t) => canTransition("failed", t))).toEqual(["paid"]);
  });

  // Who may: [status, method, to, by, verdict].
  it.each([
    ["pending", "manual", "processing", "merchant", "ok"],
    ["pending", "manual", "processing", "system", "ok"],
    ["pending", "manual", "paid", "merchant", "ok"],
    ["pending", "manual", "paid", "sender", "transition"],
    ["pending", "manual", "cancelled", "system", "ok"],
    ["processing", "manual", "paid", "merchant", "ok"],
    ["processing", "csv", "failed", "merchant", "ok"],
    ["processing", "csv", "cancelled", "merchant", "ok"],
    ["processing", "manual", "paid", "sender", "transition"],
    ["processing", "paypal", "failed", "merchant", "held"],
    ["processing", "paypal", "paid", "merchant", "held"],
    ["processing", "paypal", "cancelled", "merchant", "held"],
    ["processing", "store_credit", "failed", "merchant", "held"],
    ["processing", "discount_code", "paid", "merchant", "held"],
    ["processing", "paypal", "paid", "sender", "ok"],
    ["processing", "store_credit", "failed", "sender", "ok"],
    ["processing", "paypal", "processing", "sender", "ok"],
    ["processing", "csv", "processing", "sender", "transition"],
    ["failed", "paypal", "paid", "sender", "ok"],
    ["cancelled", "paypal", "paid", "sender", "ok"],
    ["failed", "store_credit", "paid", "sender", "transition"],
    ["failed", "paypal", "paid", "merchant", "transition"],
    ["paid", "manual", "failed", "merchant", "transition"],
    ["paid", "paypal", "failed", "sender", "transition"],
  ] as const)("%s %s → %s by %s: %s", (status, method, to, by, verdict) => {
    const got = payoutTransition({ status, method }, to, by);
    expect(got.ok ? "ok" : got.why).toBe(verdict);
  });

  it("offers a merchant only what the table allows", () => {
    expect(merchantActionsFor({ status: "processing", method: "paypal" })).toEqual({
      markPaid: false,
      markFailed: false,
      cancel: false,
      retry: false,
      heldBy: "paypal",
    });
    expect(merchantActionsFor({ status: "processing", method: "csv" })).toEqual({
      markPaid: true,
      markFailed: true,
      cancel: true,
      retry: false,
      heldBy: null,
    });
    expect(merchantActionsFor({ status: "pending", method: "manual" })).toMatchObject({
      markPaid: true,
      cancel: false,
    });
    expect(merchantActionsFor({ status: "failed", method: "paypal" })).toMatchObject({ markPaid: false, retry: true });
    expect(merchantActionsFor({ status: "paid", method: "manual" })).toMatchObject({ markPaid: false, retry: false });
  });

  it("names the states a write may start from, and a batch's path", () => {
    expect(fromStatesFor("paid", "merchant", "csv")).toEqual(["pending", "processing"]);
    expect(fromStatesFor("paid", "sender", "paypal")).toEqual(["processing", "failed", "cancelled"]);
    expect(fromStatesFor("failed", "merchant", "paypal")).toEqual([]);
    expect(batchFromStates("done")).toEqual(["created", "sending", "sent"]);
    expect(canBatchTransition("done", "failed")).toBe(false);
    expect(canBatchTransition("sending", "sent")).toBe(true);
  });

  it.each([
    ["paypal", true, true],
    ["store_credit", true, true],
    ["discount_code", true, true],
    ["manual", true, false],
    ["csv", true, false],
  ] as const)("%s is a method (%s) that sends (%s)", (method, known, sends) => {
    expect(isPayoutMethod(method)).toBe(known);
    expect(isSendingMethod(method)).toBe(sends);
  });

  it("refuses unknown methods and keys one pending payout per affiliate and currency", () => {
    expect(isPayoutMethod("cheque")).toBe(false);
    expect(openKeyOf("aff1", "EUR")).toBe("aff1:EUR");
  });
});
