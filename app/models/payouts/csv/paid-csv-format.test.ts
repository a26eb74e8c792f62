import { describe, expect, it } from "vitest";
import { parsePaidAt, parsePaidCsv } from "./paid-csv-format";

const now = new Date("2026-11-24T04:00:00Z");
const HEADER =
  "payout_id,affiliate_email,affiliate_name,paypal_email,amount,currency,created_at,reference,paid_at,note";

describe("parsePaidCsv", () => {
  it("reads the plain export with its reference filled in, numbering rows as a spreadsheet does", () => {
    const csv = `\uFEFF${HEADER}\r\npo_1,ann@example.com,Ann,,1.00,USD,2026-11-01T00:00:00Z, TX-1 ,2026-11-20,Bank wire\r\n\r\npo_2,,,,,,,'=TX2,,\r\n`;
    expect(parsePaidCsv(csv, now)).toEqual({
      errors: [],
      fileErrors: [],
      rows: [
        { row: 2, payoutId: "po_1", reference: "TX-1", paidAt: new Date("2026-11-20T12:00:00Z"), note: "Bank wire" },
        { row: 3, payoutId: "po_2", reference: "=TX2", paidAt: null, note: null },
      ],
    });
  });

  it("needs only payout_id and reference, in any order", () => {
    expect(parsePaidCsv("reference,payout_id\nR1,po_1\n", now).rows).toEqual([
      { row: 2, payoutId: "po_1", reference: "R1", paidAt: null, note: null },
    ]);
  });

  it.each([
    ["", [{ row: 1, column: "", message: "The file is empty." }]],
    ["payout_id,reference\n", [{ row: 2, column: "", message: "The file has no payout rows." }]],
    [
      "payout,reference,reference\nx,y,z\n",
      [
        { row: 1, column: "payout", message: expect.stringContaining("Unknown column") },
        { row: 1, column: "reference", message: "This column is listed twice" },
        { row: 1, column: "payout_id", message: "This column is required" },
      ],
    ],
  ])("refuses a bad file: %j", (csv, expected) => {
    expect(parsePaidCsv(csv, now)).toEqual({ rows: [], errors: [], fileErrors: expected });
  });

  it("reports every bad row with its column, keeping the good rows", () => {
    const csv = [
      "payout_id,reference,paid_at,note",
      "po_1,R1,,",
      ",,,",
      "po_1,R2,2026-13-45,",
      "po_3,R3,2027-01-01,",
      `po_4,${"x".repeat(201)},,`,
      "po_5,R5,,,surplus",
    ].join("\n");
    const { rows, errors } = parsePaidCsv(csv, now);
    expect(rows.map((r) => r.row)).toEqual([2]);
    expect(errors).toEqual([
      { row: 3, column: "payout_id", message: "Enter the payout's id" },
      { row: 3, column: "reference", message: "Enter the payment's reference" },
      { row: 4, column: "payout_id", message: "This payout is already on row 2" },
      { row: 4, column: "paid_at", message: "Use a date as YYYY-MM-DD (or an ISO 8601 time)" },
      { row: 5, column: "paid_at", message: "The payment date is in the future" },
      { row: 6, column: "reference", message: "Use at most 200 characters" },
      { row: 7, column: "", message: "This row has 5 cells; the header has 4" },
    ]);
  });
});

describe("parsePaidAt", () => {
  it.each([
    ["2026-11-20", new Date("2026-11-20T12:00:00Z")],
    ["2026-11-20T09:15:00Z", new Date("2026-11-20T09:15:00Z")],
    ["2026-11-20T09:15:00+02:00", new Date("2026-11-20T07:15:00Z")],
    ["20/11/2026", "Use a date as YYYY-MM-DD (or an ISO 8601 time)"],
    ["yesterday", "Use a date as YYYY-MM-DD (or an ISO 8601 time)"],
    ["2026-12-01", "The payment date is in the future"],
  ])("%s → %j", (text, expected) => {
    expect(parsePaidAt(text, now)).toEqual(expected);
  });
});
