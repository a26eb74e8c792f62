import i18next from "i18next";
import { describe, expect, it } from "vitest";
import enSales from "../../../public/locales/en/Sales.json";
import deSales from "../../../public/locales/de/Sales.json";
import enReasons from "../../../public/locales/en/Account.Reasons.json";
import zhReasons from "../../../public/locales/zh/Account.Reasons.json";
import {
  parseSignals,
  reconcileSignals,
  signalsForAffiliate,
  signalsText,
  withPixelSignal,
  type SignalEntry,
  type SignalFacts,
} from "./reconcile-signals";

const ANNA = { id: "a", who: "Anna Test (ANNA)" };
const BEN = { id: "b", who: "Ben Test (BEN)" };

describe("reconcileSignals", () => {
  it.each<[string, SignalFacts, string | null, SignalEntry[]]>([
    [
      "every signal names the credited affiliate",
      { click: ANNA, cart: ANNA, pixel: ANNA, coupon: ANNA, customer: ANNA },
      "a",
      [
        { s: "click", v: "agrees" },
        { s: "cart", v: "agrees" },
        { s: "pixel", v: "agrees" },
        { s: "coupon", v: "agrees" },
        { s: "customer", v: "agrees" },
      ],
    ],
    [
      "a code-only order",
      { coupon: ANNA },
      "a",
      [
        { s: "click", v: "none" },
        { s: "cart", v: "none" },
        { s: "pixel", v: "none" },
        { s: "coupon", v: "agrees" },
        { s: "customer", v: "none" },
      ],
    ],
    [
      "the pixel names another affiliate than the coupon that won",
      { pixel: BEN, coupon: ANNA, click: null },
      "a",
      [
        { s: "click", v: "none" },
        { s: "cart", v: "none" },
        { s: "pixel", v: "differs", who: "Ben Test (BEN)" },
        { s: "coupon", v: "agrees" },
        { s: "customer", v: "none" },
      ],
    ],
    [
      "an order credited to no one (a refused self-referral) still lists what pointed where",
      { coupon: ANNA },
      null,
      [
        { s: "click", v: "none" },
        { s: "cart", v: "none" },
        { s: "pixel", v: "none" },
        { s: "coupon", v: "differs", who: "Anna Test (ANNA)" },
        { s: "customer", v: "none" },
      ],
    ],
  ])("%s", (_name, facts, credited, expected) => {
    expect(reconcileSignals(facts, credited)).toEqual(expected);
  });
});

describe("withPixelSignal (a report after the order)", () => {
  const recorded = reconcileSignals({ coupon: ANNA, cart: ANNA }, "a");

  it("changes only the pixel's entry", () => {
    expect(withPixelSignal(recorded, ANNA, "a")).toEqual(
      recorded.map((e) => (e.s === "pixel" ? { s: "pixel", v: "agrees" } : e)),
    );
    expect(withPixelSignal(recorded, BEN, "a")).toEqual(
      recorded.map((e) => (e.s === "pixel" ? { s: "pixel", v: "differs", who: "Ben Test (BEN)" } : e)),
    );
  });

  it("is the same record when applied twice", () => {
    const once = withPixelSignal(recorded, BEN, "a");
    expect(withPixelSignal(once, BEN, "a")).toEqual(once);
  });

  it("claims nothing about signals an order recorded before signals were kept never looked at", () => {
    expect(withPixelSignal([], ANNA, "a")).toEqual([{ s: "pixel", v: "agrees" }]);
  });
});

describe("parseSignals", () => {
  it.each([
    ["", []],
    ["not json", []],
    ['{"s":"pixel"}', []],
    ['[{"s":"pixel","v":"agrees"},{"s":"bogus","v":"agrees"},{"s":"cart","v":"maybe"}]', [{ s: "pixel", v: "agrees" }]],
    ['[{"s":"coupon","v":"agrees","who":"X"}]', [{ s: "coupon", v: "agrees" }]],
    ['[{"s":"coupon","v":"differs","who":"X (X)"}]', [{ s: "coupon", v: "differs", who: "X (X)" }]],
  ])("%j", (raw, expected) => {
    expect(parseSignals(raw)).toEqual(expected);
  });

  it("reads back what reconcileSignals stored", () => {
    const record = reconcileSignals({ pixel: BEN, coupon: ANNA }, "a");
    expect(parseSignals(JSON.stringify(record))).toEqual(record);
  });
});

function translator(lng: string, ns: string, texts: object) {
  const instance = i18next.createInstance();
  void instance.init({
    lng,
    ns: [ns],
    defaultNS: ns,
    resources: { [lng]: { [ns]: texts } },
    interpolation: { escapeValue: false },
    initImmediate: false,
  });
  return (key: string, values?: Record<string, unknown>) => instance.t(key, values) as string;
}

describe("signalsText", () => {
  const record = reconcileSignals({ click: ANNA, cart: ANNA, pixel: BEN, coupon: null, customer: null }, "a");

  it("names the other affiliate to the merchant, in the merchant's language", () => {
    expect(signalsText(translator("en", "Sales", enSales), record, "Sales")).toBe(
      "Signals: link click ✓, cart attribute ✓, pixel ✗ (Ben Test (BEN)), discount code — (none), customer link — (none)",
    );
    expect(signalsText(translator("de", "Sales", deSales), record, "Sales")).toBe(
      "Signale: Link-Klick ✓, Warenkorb-Attribut ✓, Pixel ✗ (Ben Test (BEN)), Rabattcode — (keins), Kundenbindung — (keins)",
    );
  });

  it("never names the other affiliate to the affiliate", () => {
    const mine = signalsForAffiliate(record);
    expect(JSON.stringify(mine)).not.toContain("BEN");
    expect(signalsText(translator("en", "Account.Reasons", enReasons), mine, "Account.Reasons")).toBe(
      "Signals: link click ✓, cart attribute ✓, pixel ✗ (another affiliate), discount code — (none), customer link — (none)",
    );
    expect(signalsText(translator("zh", "Account.Reasons", zhReasons), mine, "Account.Reasons")).toBe(
      "信号：链接点击 ✓、购物车属性 ✓、像素 ✗ (另一位推广者)、折扣码 — (无)、客户关联 — (无)",
    );
  });

  it("says nothing for an order with no record", () => {
    expect(signalsText(translator("en", "Sales", enSales), [], "Sales")).toBe("");
  });
});
