import { describe, expect, it } from "vitest";
import {
  codeFromLink,
  headerKey,
  locateColumns,
  mapAppRow,
  missingColumns,
  type AppField,
  type AppFormat,
} from "./app-import-formats";

// Each app's row mapper: a row of its export (by header name) becomes a row
// of this app's own columns, with the affiliate's old link code kept either
// as their referral code (when it is a valid one) or as an alias.

const row =
  (cells: Partial<Record<AppField, string>>) =>
  (field: AppField): string =>
    cells[field] ?? "";

const base = {
  email: "",
  first_name: "",
  last_name: "",
  status: "",
  campaign: "",
  referral_code: "",
  coupon_codes: "",
};

describe("mapAppRow", () => {
  it.each<[string, AppFormat, Partial<Record<AppField, string>>, object, string | null]>([
    [
      "UpPromote: an active affiliate with a ?sca_ref= link and a coupon",
      "uppromote",
      {
        email: "Ana@Example.com",
        first_name: "Ana",
        last_name: "Lima",
        status: "Active",
        link: "https://shop.example/?sca_ref=2435465.xNnJWu9WKq",
        coupons: "ana10",
      },
      { email: "Ana@Example.com", first_name: "Ana", last_name: "Lima", status: "approved", coupon_codes: "ANA10" },
      "2435465-XNNJWU9WKQ",
    ],
    [
      "UpPromote: a short numeric sca_ref is a valid code and becomes the referral code",
      "uppromote",
      { email: "b@example.com", name: "Bo Berg Jr", status: "Pending", link: "shop.example/products/x?sca_ref=921" },
      { email: "b@example.com", first_name: "Bo", last_name: "Berg Jr", status: "pending", referral_code: "921" },
      null,
    ],
    [
      "UpPromote: inactive, several coupons, no link",
      "uppromote",
      { email: "c@example.com", first_name: "Cy", status: "Inactive", coupons: "C1X, c2y;C1X" },
      { email: "c@example.com", first_name: "Cy", status: "inactive", coupon_codes: "C1X C2Y" },
      null,
    ],
    [
      "GoAffPro: the ref code is the referral code",
      "goaffpro",
      { email: "d@example.com", name: "Dee", code: "dee15", coupons: "DEE15OFF", status: "approved" },
      {
        email: "d@example.com",
        first_name: "Dee",
        referral_code: "DEE15",
        status: "approved",
        coupon_codes: "DEE15OFF",
      },
      null,
    ],
    [
      "GoAffPro: the code read from a ?ref= link",
      "goaffpro",
      { email: "e@example.com", first_name: "Eve", link: "https://shop.example/?ref=eve_7", status: "blocked" },
      { email: "e@example.com", first_name: "Eve", referral_code: "EVE_7", status: "inactive" },
      null,
    ],
    [
      "Refersion: ?rfsn=id.hash kept as an alias; an unknown status is the campaign's",
      "refersion",
      {
        email: "f@example.com",
        first_name: "Fay",
        last_name: "Ng",
        link: "https://shop.example?rfsn=123456.abc123",
        status: "x",
      },
      { email: "f@example.com", first_name: "Fay", last_name: "Ng" },
      "123456-ABC123",
    ],
    [
      "Shopify Collabs: the affiliate code is the referral code and a coupon",
      "collabs",
      { email: "g@example.com", name: "Gus", code: "gus20" },
      { email: "g@example.com", first_name: "Gus", referral_code: "GUS20", coupon_codes: "GUS20" },
      null,
    ],
  ])("%s", (_name, format, cells, values, alias) => {
    const mapped = mapAppRow(format, row(cells));
    expect(mapped.values).toEqual({ ...base, ...values });
    expect(mapped.alias).toBe(alias);
    expect(mapped.oldCodeLost).toBeNull();
  });

  it("reports an old code that fits neither a referral code nor an alias", () => {
    const mapped = mapAppRow("goaffpro", row({ email: "h@example.com", first_name: "H", code: "a b c" }));
    expect(mapped).toMatchObject({ alias: null, oldCodeLost: "a b c", values: { referral_code: "" } });
  });
});

describe("headers", () => {
  it.each([
    ["First Name", "first name"],
    [" email_address ", "email address"],
    ["Affiliate-Link", "affiliate link"],
  ])("%j reads as %j", (raw, key) => expect(headerKey(raw)).toBe(key));

  it.each<[AppFormat, string[], Partial<Record<AppField, number>>, AppField[]]>([
    ["uppromote", ["first_name", "last_name", "email"], { first_name: 0, last_name: 1, email: 2 }, []],
    ["uppromote", ["ID", "Email", "Affiliate link", "Clicks"], { email: 1, link: 2 }, ["first_name"]],
    [
      "refersion",
      ["First Name", "Last Name", "Email Address", "Offer ID", "Coupon"],
      { first_name: 0, last_name: 1, email: 2, coupons: 4 },
      [],
    ],
    ["collabs", ["Email", "Affiliate code"], { email: 0, code: 1 }, ["first_name"]],
    ["goaffpro", ["Name", "Email", "Ref Code"], { name: 0, email: 1, code: 2 }, []],
  ])("%s %j", (format, header, found, missing) => {
    const located = locateColumns(format, header);
    expect(located).toEqual(found);
    expect(missingColumns(located)).toEqual(missing);
  });
});

describe("codeFromLink", () => {
  it.each([
    ["https://shop.example/?sca_ref=1.a", ["sca_ref"], "1.a"],
    ["shop.example/p?x=1&ref=JO", ["ref"], "JO"],
    ["not a link at all", ["ref"], null],
    ["", ["ref"], null],
    ["https://shop.example/?other=1", ["rfsn"], null],
  ])("%j", (link, params, code) => expect(codeFromLink(link, params)).toBe(code));
});
