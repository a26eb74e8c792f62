import { describe, expect, it } from "vitest";
import { parseAffiliateCsv } from "./csv-format";

const HEADER = "email,first_name,last_name,status,campaign,referral_code,coupon_codes,upline";

describe("parseAffiliateCsv", () => {
  it("reads rows into form input, numbering rows as a spreadsheet does", () => {
    const csv = `\uFEFF${HEADER}\r\nAnn@Example.com , Ann,Lee,APPROVED,VIP,ann-lee,"ann10, ann20",\r\n\r\nbob@example.com,Bob,,,,,,ANN-LEE\r\n`;
    const { rows, errors } = parseAffiliateCsv(csv);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        row: 2,
        campaign: "VIP",
        form: {
          email: "ann@example.com",
          first_name: "Ann",
          last_name: "Lee",
          status: "approved",
          campaign_id: undefined,
          referral_code: "ANN-LEE",
          coupon_codes: ["ANN10", "ANN20"],
          upline: undefined,
        },
      },
      expect.objectContaining({
        row: 3,
        campaign: undefined,
        form: expect.objectContaining({ upline: "ANN-LEE", coupon_codes: [] }),
      }),
    ]);
  });

  it("accepts the export's extra columns and any column order", () => {
    const { rows, errors } = parseAffiliateCsv("first_name,id,created_at,email\nCid,x,2025-01-01,cid@example.com\n");
    expect(errors).toEqual([]);
    expect(rows[0]!.form).toMatchObject({ email: "cid@example.com", first_name: "Cid", last_name: "" });
  });

  it.each([
    ["", [{ row: 1, column: "", message: "The file is empty." }]],
    [`${HEADER}\n`, [{ row: 2, column: "", message: "The file has no affiliate rows." }]],
    [
      "mail,first_name,first_name\nx,y,z\n",
      [
        { row: 1, column: "mail", message: expect.stringContaining("Unknown column") },
        { row: 1, column: "first_name", message: "This column is listed twice" },
        { row: 1, column: "email", message: "This column is required" },
      ],
    ],
    [
      'email,first_name\n"unterminated,x\n',
      [{ row: expect.any(Number), column: "", message: expect.stringContaining("not valid CSV") }],
    ],
  ])("refuses a bad file: %j", (csv, expected) => {
    const result = parseAffiliateCsv(csv);
    expect(result.rows).toEqual([]);
    expect(result.errors).toEqual(expected);
  });

  it("reports each bad row with its column, keeping the good rows for the database checks", () => {
    const csv = `${HEADER}\nok@example.com,Ok,,,,,,\nbad,,,,,x y,AB,\nextra@example.com,Extra,,,,,,,,surplus\n`;
    const { rows, errors } = parseAffiliateCsv(csv);
    expect(rows.map((r) => r.row)).toEqual([2]);
    expect(errors).toEqual([
      { row: 3, column: "email", message: "Enter a valid e-mail address" },
      { row: 3, column: "first_name", message: "Enter a first name" },
      { row: 3, column: "referral_code", message: "Use 3 to 32 letters, digits, - or _" },
      { row: 3, column: "coupon_codes", message: "Use 3 to 64 characters" },
      { row: 4, column: "", message: "This row has 10 cells; the header has 8" },
    ]);
  });
});
