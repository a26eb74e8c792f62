import { describe, expect, it } from "vitest";
import { reasonForAffiliate } from "../attribution/attribution-reason";
import { claimFormSchema, claimTerms, orderNumberOf } from "./claim-input";

describe("claim form", () => {
  it.each<[string, Record<string, string>, string[]]>([
    ["nothing", {}, ["orderNumber", "email"]],
    ["a number without e-mail", { orderNumber: "1042" }, ["email"]],
    ["a bad e-mail", { orderNumber: "1042", email: "nope" }, ["email"]],
    ["an order number with spaces", { orderNumber: "10 42", email: "a@b.co" }, ["orderNumber"]],
    ["a date without total", { day: "2026-11-20" }, ["amount"]],
    ["an impossible date", { day: "2026-02-30", amount: "5" }, ["day"]],
  ])("refuses %s", (_name, form, fields) => {
    const result = claimFormSchema.safeParse(form);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues.map((i) => i.path[0]).sort()).toEqual([...fields].sort());
  });

  it.each<[Record<string, string>, number, unknown]>([
    [{ orderNumber: "1042", email: "A@B.co" }, 2, { method: "number", orderNumber: "#1042", email: "a@b.co" }],
    [{ day: "2026-11-20", amount: "110,50" }, 2, { method: "date", day: "2026-11-20", amount: 11_050 }],
    [{ day: "2026-11-20", amount: "1500" }, 0, { method: "date", amount: 1_500 }],
  ])("turns %o into terms", (form, decimals, terms) => {
    expect(claimTerms(claimFormSchema.parse(form), decimals)).toMatchObject({ ok: true, terms });
  });

  it.each([["0"], ["-1"], ["1.234"], ["abc"]])("refuses the total %s", (amount) => {
    expect(claimTerms(claimFormSchema.parse({ day: "2026-11-20", amount }), 2)).toMatchObject({
      ok: false,
      field: "amount",
    });
  });

  it("writes order numbers as Shopify does", () => {
    expect(orderNumberOf("1001")).toBe("#1001");
    expect(orderNumberOf("##1001")).toBe("#1001");
  });
});

describe("what an affiliate reads of a reason", () => {
  it("drops the notes about other candidates and keeps the rest", () => {
    const notes = [{ k: "selfEmail", signal: "link", who: "Bo (BO)", email: "buyer@example.com" }];
    const out = reasonForAffiliate({
      reasonKey: "Sales:attributionReason.coupon",
      reasonValues: JSON.stringify({ who: "Ana (ANA)", code: "ANA10", notes }),
    });
    expect(out.reasonValues).toEqual({ who: "Ana (ANA)", code: "ANA10" });
    expect(JSON.stringify(out)).not.toContain("buyer@example.com");
  });
});
