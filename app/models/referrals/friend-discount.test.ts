import { describe, expect, it } from "vitest";
import { friendDiscount, sharedFriendCode, uniqueFriendCode } from "./friend-discount";
import { DEFAULT_REFERRAL_PROGRAM, type ReferralProgram } from "./program-settings";

const now = new Date("2026-11-24T10:00:00Z");
const program = (friendReward: Partial<ReferralProgram["friendReward"]>) => ({
  friendReward: { ...DEFAULT_REFERRAL_PROGRAM.friendReward, ...friendReward },
});
const base = { code: "FRIEND-ABCDEFGH", advocateEmail: "anna@example.com", currency: "USD", now, singleUse: false };

describe("friendDiscount", () => {
  it.each([
    [
      "10 % off, shared, no end",
      program({ type: "percentage", value: 1000 }),
      base,
      {
        kind: "basic",
        customerGets: { value: { percentage: 0.1 }, items: { all: true } },
        usageLimit: null,
        endsAt: null,
        minimumRequirement: null,
      },
    ],
    [
      "5.00 off a 30.00 order, single use, 7 days",
      program({ type: "fixed_amount", value: 500, minimumOrder: 3000, expiryDays: 7 }),
      { ...base, singleUse: true },
      {
        kind: "basic",
        customerGets: { value: { discountAmount: { amount: "5.00", appliesOnEachItem: false } }, items: { all: true } },
        usageLimit: 1,
        endsAt: "2026-12-01T10:00:00.000Z",
        minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "30.00" } },
      },
    ],
    [
      "500 yen off (no minor unit)",
      program({ type: "fixed_amount", value: 500 }),
      { ...base, currency: "JPY" },
      {
        kind: "basic",
        customerGets: { value: { discountAmount: { amount: "500", appliesOnEachItem: false } }, items: { all: true } },
      },
    ],
    [
      "free shipping over 20.00",
      program({ type: "free_shipping", value: 0, minimumOrder: 2000 }),
      base,
      {
        kind: "free_shipping",
        destination: { all: true },
        minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "20.00" } },
      },
    ],
  ])("%s", (_name, p, options, expected) => {
    const { kind, ...rest } = expected as { kind: string };
    const out = friendDiscount(p, options);
    expect(out.kind).toBe(kind);
    expect(out.input).toMatchObject({
      ...rest,
      code: "FRIEND-ABCDEFGH",
      appliesOncePerCustomer: true,
      startsAt: now.toISOString(),
      context: { all: "ALL" },
    });
    expect(out.input.title).toBe("Refer a friend: anna@example.com (FRIEND-ABCDEFGH)");
    if (kind === "free_shipping") expect(out.input).not.toHaveProperty("customerGets");
  });
});

describe("friend codes", () => {
  it("derives the same shared code for an advocate every time, another for another advocate or secret", () => {
    const a = sharedFriendCode("adv_1", "secret");
    expect(a).toMatch(/^FRIEND-[A-HJ-NP-Z2-9]{8}$/);
    expect(sharedFriendCode("adv_1", "secret")).toBe(a);
    expect(sharedFriendCode("adv_2", "secret")).not.toBe(a);
    expect(sharedFriendCode("adv_1", "other")).not.toBe(a);
  });

  it("makes unique codes that do not repeat", () => {
    const codes = new Set(Array.from({ length: 500 }, () => uniqueFriendCode()));
    expect(codes.size).toBe(500);
    for (const c of codes) expect(c).toMatch(/^FRIEND-[A-HJ-NP-Z2-9]{12}$/);
  });
});
