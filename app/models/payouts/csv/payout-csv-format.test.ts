import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { decimalAmount, payoutCsvFileName, payoutCsvTable, type ExportPayout } from "./payout-csv-format";

const at = new Date("2026-11-20T08:30:00.000Z");
const ann: ExportPayout = {
  id: "po_ann",
  amount: 12345,
  currency: "USD",
  createdAt: at,
  affiliate: { email: "ann@example.com", paypalEmail: "ann.pay@example.com", firstName: "Ann", lastName: "Lee" },
};
const bob: ExportPayout = {
  id: "po_bob",
  amount: 500,
  currency: "USD",
  createdAt: at,
  affiliate: { email: "bob@example.com", paypalEmail: null, firstName: "Bob", lastName: "" },
};
// An affiliate who signed up with formulas for a name.
const eve: ExportPayout = {
  id: "po_eve",
  amount: 1000,
  currency: "USD",
  createdAt: at,
  affiliate: { email: "eve@example.com", paypalEmail: null, firstName: '=HYPERLINK("http://x")', lastName: "+1" },
};

describe("decimalAmount", () => {
  it.each([
    [12345, "USD", "123.45"],
    [5, "USD", "0.05"],
    [0, "EUR", "0.00"],
    [1234, "JPY", "1234"],
    [1234, "KWD", "1.234"],
    [-250, "USD", "-2.50"],
  ])("%i %s is %s", (minor, currency, text) => {
    expect(decimalAmount(minor, currency)).toBe(text);
  });
});

describe("payoutCsvTable", () => {
  it.each([
    [
      "paypal",
      [
        ["ann.pay@example.com", "123.45", "USD", "po_ann", "Affiliate payout", "PAYPAL"],
        ["bob@example.com", "5.00", "USD", "po_bob", "Affiliate payout", "PAYPAL"],
      ],
    ],
    [
      "wise",
      [
        [
          "name",
          "recipientEmail",
          "paymentReference",
          "receiverType",
          "amountCurrency",
          "amount",
          "sourceCurrency",
          "targetCurrency",
        ],
        ["Ann Lee", "ann@example.com", "po_ann", "PRIVATE", "target", "123.45", "USD", "USD"],
        ["Bob", "bob@example.com", "po_bob", "PRIVATE", "target", "5.00", "USD", "USD"],
      ],
    ],
    [
      "plain",
      [
        [
          "payout_id",
          "affiliate_email",
          "affiliate_name",
          "paypal_email",
          "amount",
          "currency",
          "payout_amount",
          "payout_currency",
          "rate",
          "rate_source",
          "rate_at",
          "created_at",
          "reference",
          "paid_at",
          "note",
        ],
        [
          "po_ann",
          "ann@example.com",
          "Ann Lee",
          "ann.pay@example.com",
          "123.45",
          "USD",
          "",
          "",
          "",
          "",
          "",
          "2026-11-20T08:30:00.000Z",
          "",
          "",
          "",
        ],
        [
          "po_bob",
          "bob@example.com",
          "Bob",
          "",
          "5.00",
          "USD",
          "",
          "",
          "",
          "",
          "",
          "2026-11-20T08:30:00.000Z",
          "",
          "",
          "",
        ],
      ],
    ],
  ] as const)("writes the %s format", (format, expected) => {
    expect(payoutCsvTable(format, [ann, bob], { note: "Affiliate payout" })).toEqual(expected);
  });

  it("guards every cell against spreadsheet formulas", () => {
    const [, row] = payoutCsvTable("wise", [eve], { note: "" });
    expect(row![0]).toBe('\'=HYPERLINK("http://x") +1');
    const [plain] = payoutCsvTable("paypal", [eve], { note: "@SUM(A1)" });
    expect(plain![4]).toBe("'@SUM(A1)");
    const [, line] = payoutCsvTable("plain", [{ ...eve, affiliate: { ...eve.affiliate, lastName: "-2" } }], {
      note: "",
    });
    expect(line![2]).toBe('\'=HYPERLINK("http://x") -2');
  });

  it("quotes commas and quotes as CSV requires", () => {
    const odd = { ...ann, affiliate: { ...ann.affiliate, firstName: 'Ann "A", Jr.' } };
    const text = stringify(payoutCsvTable("wise", [odd], { note: "" }));
    expect(text.split("\n")[1]).toBe('"Ann ""A"", Jr. Lee",ann@example.com,po_ann,PRIVATE,target,123.45,USD,USD');
  });

  it("refuses a PayPal file of several currencies (PayPal takes one per file)", () => {
    expect(() => payoutCsvTable("paypal", [ann, { ...bob, currency: "EUR" }], { note: "" })).toThrow(
      'Payouts:csv.errors.oneCurrency{"currencies":"EUR, USD"}',
    );
    // Wise and plain files may mix currencies.
    expect(payoutCsvTable("wise", [ann, { ...bob, currency: "EUR" }], { note: "" })[2]![6]).toBe("EUR");
  });
});

describe("a payout paid in the affiliate's currency", () => {
  const cad: ExportPayout = {
    ...ann,
    converted: {
      currency: "CAD",
      amount: 16692,
      rate: "1.3521",
      source: "merchant",
      by: "Mia",
      at: "2026-11-19T10:00:00.000Z",
    },
  };
  it.each([
    ["paypal", 0, ["ann.pay@example.com", "166.92", "CAD", "po_ann", "", "PAYPAL"]],
    ["wise", 1, ["Ann Lee", "ann@example.com", "po_ann", "PRIVATE", "target", "166.92", "USD", "CAD"]],
    [
      "plain",
      1,
      [
        "po_ann",
        "ann@example.com",
        "Ann Lee",
        "ann.pay@example.com",
        "123.45",
        "USD",
        "166.92",
        "CAD",
        "1.3521",
        "merchant: Mia",
        "2026-11-19T10:00:00.000Z",
        "2026-11-20T08:30:00.000Z",
        "",
        "",
        "",
      ],
    ],
  ] as const)("the %s file pays the converted amount and shows both", (format, row, expected) => {
    expect(payoutCsvTable(format, [cad], { note: "" })[row]).toEqual(expected);
  });
});

describe("payoutCsvFileName", () => {
  it.each([
    ["paypal", ["USD"], "payouts-paypal-2026-11-24-usd.csv"],
    ["wise", ["USD", "EUR"], "payouts-wise-2026-11-24.csv"],
    ["plain", ["USD"], "payouts-plain-2026-11-24.csv"],
  ] as const)("%s %j → %s", (format, currencies, name) => {
    expect(
      payoutCsvFileName(
        format,
        currencies.map((currency) => ({ currency })),
        "2026-11-24",
      ),
    ).toBe(name);
  });
});
