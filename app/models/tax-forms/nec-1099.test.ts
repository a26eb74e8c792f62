import { describe, expect, it } from "vitest";
import { dollars, necReport, necThreshold, type NecPayment } from "./nec-1099";

const pay = (amount: number, method: string, paidAt: string, currency = "USD"): NecPayment => ({
  amount,
  currency,
  method,
  paidAt: new Date(paidAt),
});

describe("necThreshold", () => {
  it.each([
    [2020, { known: true, cents: 60_000 }],
    [2024, { known: true, cents: 60_000 }],
    [2025, { known: true, cents: 60_000 }],
    [2026, { known: true, cents: 200_000 }],
    [2027, { known: false, latestKnownYear: 2026 }],
    [2019, { known: false, latestKnownYear: 2026 }],
  ])("%i", (year, expected) => {
    expect(necThreshold(year)).toEqual(expected);
  });
});

describe("necReport", () => {
  const cases: [string, number, NecPayment[], { box1: number; paypal: number; reportable: boolean }][] = [
    [
      "by hand over the 2026 threshold",
      2026,
      [pay(250_000, "manual", "2026-03-01T00:00:00Z")],
      { box1: 250_000, paypal: 0, reportable: true },
    ],
    [
      "exactly the threshold is reportable",
      2026,
      [pay(200_000, "csv", "2026-03-01T00:00:00Z")],
      { box1: 200_000, paypal: 0, reportable: true },
    ],
    [
      "one cent under is not",
      2026,
      [pay(199_999, "manual", "2026-03-01T00:00:00Z")],
      { box1: 199_999, paypal: 0, reportable: false },
    ],
    [
      "$1,000 was reportable in 2025, not in 2026",
      2025,
      [pay(100_000, "manual", "2025-12-31T23:59:59Z")],
      { box1: 100_000, paypal: 0, reportable: true },
    ],
    [
      "$1,000 in 2026 is under $2,000",
      2026,
      [pay(100_000, "manual", "2026-01-01T00:00:00Z")],
      { box1: 100_000, paypal: 0, reportable: false },
    ],
    [
      "PayPal is left out (1099-K)",
      2026,
      [pay(300_000, "paypal", "2026-05-01T00:00:00Z"), pay(50_000, "manual", "2026-05-02T00:00:00Z")],
      { box1: 50_000, paypal: 300_000, reportable: false },
    ],
    [
      "by hand and PayPal: only by hand counts",
      2026,
      [pay(100_000, "paypal", "2026-05-01T00:00:00Z"), pay(210_000, "manual", "2026-06-01T00:00:00Z")],
      { box1: 210_000, paypal: 100_000, reportable: true },
    ],
    [
      "store credit and codes count as by hand",
      2026,
      [pay(150_000, "store_credit", "2026-02-01T00:00:00Z"), pay(60_000, "discount_code", "2026-02-02T00:00:00Z")],
      { box1: 210_000, paypal: 0, reportable: true },
    ],
    [
      "another year is not added",
      2026,
      [pay(500_000, "manual", "2025-12-31T23:59:59Z")],
      { box1: 0, paypal: 0, reportable: false },
    ],
    [
      "other currencies are not added",
      2026,
      [pay(500_000, "manual", "2026-02-01T00:00:00Z", "EUR")],
      { box1: 0, paypal: 0, reportable: false },
    ],
  ];
  it.each(cases)("%s", (_name, year, payments, expected) => {
    const report = necReport(year, [{ payee: "a", payments }]);
    expect(report?.rows[0]).toMatchObject(expected);
  });

  it("refuses a year whose threshold is not known", () => {
    expect(necReport(2027, [{ payee: "a", payments: [pay(900_000, "manual", "2027-01-05T00:00:00Z")] }])).toBeNull();
  });

  it("lists the reportable payees first, largest first", () => {
    const report = necReport(2026, [
      { payee: "small", payments: [pay(10_000, "manual", "2026-01-05T00:00:00Z")] },
      { payee: "big", payments: [pay(900_000, "manual", "2026-01-05T00:00:00Z")] },
      { payee: "mid", payments: [pay(300_000, "manual", "2026-01-05T00:00:00Z")] },
    ])!;
    expect(report.rows.map((r) => r.payee)).toEqual(["big", "mid", "small"]);
    expect(report.rows.map((r) => r.reportable)).toEqual([true, true, false]);
  });
});

describe("dollars", () => {
  it.each([
    [200_000, "2000.00"],
    [5, "0.05"],
    [123_456, "1234.56"],
    [-150, "-1.50"],
  ])("%i", (cents, text) => expect(dollars(cents)).toBe(text));
});
