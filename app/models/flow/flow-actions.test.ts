import { describe, expect, it } from "vitest";
import { affiliateLookup, firstProblem, FLOW_ACTION_PROPERTIES, flowActionRequestSchema } from "./flow-actions";

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
});
