import { describe, expect, it } from "vitest";
import {
  affiliateLookup,
  firstProblem,
  FLOW_ACTION_PROPERTIES,
  flowActionRequestSchema,
  orderLookup,
} from "./flow-actions";

describe("the Flow action request", () => {
  it("reads the runtime's envelope (shop_id as a number or text)", () => {
    const parsed = flowActionRequestSchema.parse({
      shop_id: 42,
      shopify_domain: "Shop-1.myshopify.com",
      action_run_id: "run-1",
      action_definition_id: "approve-affiliate",
      handle: "approve-affiliate",
      properties: { affiliate: "ANNA7" },
    });
    expect(parsed).toMatchObject({ shop_id: "42", shopify_domain: "shop-1.myshopify.com", action_run_id: "run-1" });
  });

  it.each([
    [
      { shopify_domain: "evil.example.com", shop_id: "1", action_run_id: "r" },
      "shopify_domain must be a myshopify.com domain",
    ],
    [{ shopify_domain: "a.myshopify.com", shop_id: "1", action_run_id: " " }, "action_run_id is required"],
  ])("refuses %j: %s", (body, problem) => {
    const result = flowActionRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    if (!result.success) expect(firstProblem(result.error)).toBe(problem);
  });
});

describe("the actions' properties", () => {
  it.each([
    [
      "create-affiliate",
      { email: "A@Example.com", first_name: "Ann" },
      { email: "a@example.com", first_name: "Ann", last_name: "" },
    ],
    [
      "create-affiliate",
      { email: "a@example.com", first_name: "Ann", status: "", campaign_id: "" },
      { email: "a@example.com", first_name: "Ann", last_name: "" },
    ],
    ["approve-affiliate", { affiliate: " ANNA7 " }, { affiliate: "ANNA7" }],
    [
      "adjust-commission",
      { order: "#1001", amount: -2.5, note: " Returned late ", affiliate: "" },
      { order: "#1001", amount: -2.5, note: "Returned late" },
    ],
    [
      "adjust-commission",
      { order: "1001", amount: "5", note: "Bonus", affiliate: "ANNA7" },
      { order: "1001", amount: "5", note: "Bonus", affiliate: "ANNA7" },
    ],
    [
      "tag-affiliate",
      { affiliate: "ANNA7", add_tags: "VIP, tiktok", remove_tags: "" },
      { affiliate: "ANNA7", add: ["vip", "tiktok"], remove: [] },
    ],
    ["tag-affiliate", { affiliate: "ANNA7", remove_tags: "old" }, { affiliate: "ANNA7", add: [], remove: ["old"] }],
  ] as const)("%s takes %j", (handle, properties, expected) => {
    expect(FLOW_ACTION_PROPERTIES[handle].parse(properties)).toEqual(expected);
  });

  it.each([
    ["create-affiliate", { first_name: "Ann" }, "email is required"],
    ["create-affiliate", { email: "nope", first_name: "Ann" }, "email is not an e-mail address"],
    [
      "create-affiliate",
      { email: "a@example.com", first_name: "Ann", status: "denied" },
      "status must be pending, approved or empty",
    ],
    ["deny-affiliate", {}, "affiliate is required"],
    ["deny-affiliate", { affiliate: "" }, "affiliate is required"],
    ["adjust-commission", { order: "#1", note: "x" }, "amount is required"],
    ["adjust-commission", { order: "#1", amount: true, note: "x" }, "amount must be a number"],
    ["adjust-commission", { order: "#1", amount: 1, note: " " }, "note is required"],
    ["adjust-commission", { order: "#1", amount: 1, note: "x".repeat(501) }, "note is longer than 500 characters"],
    ["tag-affiliate", { affiliate: "A", add_tags: " , " }, "add_tags or remove_tags must name a tag"],
    [
      "tag-affiliate",
      { affiliate: "A", add_tags: "x".repeat(41) },
      `add_tags: the tag "${"x".repeat(41)}" is longer than 40 characters`,
    ],
  ] as const)("%s refuses %j: %s", (handle, properties, problem) => {
    const result = FLOW_ACTION_PROPERTIES[handle].safeParse(properties);
    expect(result.success).toBe(false);
    if (!result.success) expect(firstProblem(result.error)).toBe(problem);
  });

  it.each([
    ["anna@Example.com", { email: "anna@example.com" }],
    ["anna7", { referralCode: "ANNA7", id: "anna7" }],
  ])("looks %s up by %j", (ref, where) => {
    expect(affiliateLookup(ref)).toEqual(where);
  });

  it.each([
    ["gid://shopify/Order/5001", [{ shopifyGid: "gid://shopify/Order/5001" }]],
    ["5001", [{ shopifyGid: "gid://shopify/Order/5001" }, { name: "#5001" }, { name: "5001" }]],
    ["#1001", [{ name: "#1001" }, { id: "#1001" }]],
    ["SHOP-1001", [{ name: "SHOP-1001" }, { name: "#SHOP-1001" }, { id: "SHOP-1001" }]],
  ])("looks order %s up by %j", (ref, where) => {
    expect(orderLookup(ref)).toEqual(where);
  });
});
