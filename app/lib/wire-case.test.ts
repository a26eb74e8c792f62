import { describe, expect, it } from "vitest";
import { z } from "zod";
import { snakeName, toWireCase, wireSchema } from "./wire-case";

describe("the wire case", () => {
  it.each([
    ["affiliateId", "affiliate_id"],
    ["referralCode", "referral_code"],
    ["friend_email", "friend_email"],
    ["id", "id"],
    ["isNewCustomer", "is_new_customer"],
  ])("names %s as %s", (name, wire) => {
    expect(snakeName(name)).toBe(wire);
  });

  it("renames keys at every depth and leaves values alone", () => {
    expect(
      toWireCase({
        affiliateId: "a1",
        affiliate: { firstName: "Ada", parentId: null, tags: ["keepCase"] },
        lines: [{ payoutId: "p1" }],
        referral: { order_gid: "gid://shopify/Order/1" },
      }),
    ).toEqual({
      affiliate_id: "a1",
      affiliate: { first_name: "Ada", parent_id: null, tags: ["keepCase"] },
      lines: [{ payout_id: "p1" }],
      referral: { order_gid: "gid://shopify/Order/1" },
    });
  });

  it("gives a schema that accepts exactly the renamed value", () => {
    const schema = z.object({
      affiliateId: z.string(),
      affiliate: z.object({ firstName: z.string(), parentId: z.string().nullable() }).nullable().optional(),
      amount: z.number().int().describe("Minor units"),
    });
    const value = { affiliateId: "a1", affiliate: { firstName: "Ada", parentId: null }, amount: 5 };
    const wire = wireSchema(schema);
    expect(wire.parse(toWireCase(value))).toEqual(toWireCase(value));
    expect(wire.safeParse(value).success).toBe(false);
    expect((wire as z.AnyZodObject).shape.amount.description).toBe("Minor units");
  });
});
