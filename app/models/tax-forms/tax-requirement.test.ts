import { describe, expect, it } from "vitest";
import { taxFormHold, taxSettingsOf, type HoldInput } from "./tax-requirement";

const base: HoldInput = {
  settings: { require: "above", amount: 60_000 },
  shopCurrency: "USD",
  hasForm: false,
  payout: { amount: 10_000, currency: "USD" },
  paidThisYear: 0,
};

describe("taxFormHold", () => {
  const cases: [string, Partial<HoldInput>, ReturnType<typeof taxFormHold>][] = [
    ["off never holds", { settings: { require: "off", amount: 0 } }, null],
    ["always holds without a form", { settings: { require: "always", amount: 0 } }, "tax_form_required"],
    ["always pays with a form", { settings: { require: "always", amount: 0 }, hasForm: true }, null],
    ["above: under the limit pays", { paidThisYear: 40_000 }, null],
    ["above: reaching the limit exactly pays", { paidThisYear: 50_000 }, null],
    ["above: passing the limit holds", { paidThisYear: 50_001 }, "tax_form_required_above"],
    [
      "above: one payout alone past the limit holds",
      { payout: { amount: 70_000, currency: "USD" } },
      "tax_form_required_above",
    ],
    ["above: a form lifts the hold", { paidThisYear: 90_000, hasForm: true }, null],
    ["above: another currency waits", { payout: { amount: 1, currency: "EUR" } }, "tax_form_required_above"],
  ];
  it.each(cases)("%s", (_name, change, expected) => {
    expect(taxFormHold({ ...base, ...change })).toBe(expected);
  });
});

describe("taxSettingsOf", () => {
  it("reads the defaults from a shop that never saved the tab", () => {
    expect(taxSettingsOf("{}")).toEqual({ require: "off", amount: 60_000 });
    expect(taxSettingsOf("not json")).toEqual({ require: "off", amount: 60_000 });
  });
  it("reads what was saved", () => {
    expect(taxSettingsOf(JSON.stringify({ taxForms: { require: "always", amount: 5 } }))).toEqual({
      require: "always",
      amount: 5,
    });
  });
});
