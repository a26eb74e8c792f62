import { describe, expect, it } from "vitest";
import {
  bankDetailsComplete,
  bankDetailsMask,
  isValidIban,
  maskValue,
  payoutChoiceSchema,
  type PayoutOffer,
} from "./payout-choice";

const offer: PayoutOffer = { affiliateMethods: ["paypal", "bank"], bankFields: ["Account holder", "IBAN"] };
const base = { paypalEmail: "", current: "pw" };
const issues = (result: ReturnType<ReturnType<typeof payoutChoiceSchema>["safeParse"]>) =>
  result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));

describe("isValidIban", () => {
  it.each([
    ["DE89 3704 0044 0532 0130 00", true],
    ["de89370400440532013000", true],
    ["GB82 WEST 1234 5698 7654 32", true],
    ["NL91ABNA0417164300", true],
    ["DE89 3704 0044 0532 0130 01", false], // one digit off: the checksum fails
    ["DE00 3704 0044 0532 0130 00", false],
    ["1234", false],
    ["", false],
  ])("%s → %s", (iban, valid) => {
    expect(isValidIban(iban)).toBe(valid);
  });
});

describe("payoutChoiceSchema", () => {
  it.each([
    [
      { method: "paypal", paypalEmail: " Ana@Pay.Example " },
      { method: "paypal", paypalEmail: "ana@pay.example" },
    ],
    [
      { method: "bank", bank_0: "Ana Ruiz", bank_1: "de89 3704 0044 0532 0130 00" },
      {
        method: "bank",
        details: [
          { label: "Account holder", value: "Ana Ruiz" },
          { label: "IBAN", value: "DE89370400440532013000" },
        ],
      },
    ],
  ])("accepts %j", (form, parsed) => {
    const result = payoutChoiceSchema(offer, { bankComplete: false }).safeParse({ ...base, ...form });
    expect(result.success && result.data).toEqual(parsed);
  });

  it.each([
    // A method the shop does not offer.
    [{ method: "store_credit" }, { method: "Global:validation.choose" }],
    [{ method: "cheque" }, { method: "Global:validation.choose" }],
    [{ method: "paypal" }, { paypalEmail: "Account.Common:validation.paypalEmailRequired" }],
    [{ method: "paypal", paypalEmail: "not-an-address" }, { paypalEmail: "Account.Common:validation.paypalEmail" }],
    [
      { method: "bank", bank_0: "", bank_1: "DE89 3704 0044 0532 0130 01" },
      { bank_0: "Global:validation.required", bank_1: "Account.Common:validation.iban" },
    ],
  ])("refuses %j", (form, fields) => {
    expect(issues(payoutChoiceSchema(offer, { bankComplete: false }).safeParse({ ...base, ...form }))).toEqual(fields);
  });

  it("keeps complete saved details when the fields are left empty, and only then", () => {
    const form = { ...base, method: "bank", bank_0: "", bank_1: "" };
    expect(payoutChoiceSchema(offer, { bankComplete: true }).safeParse(form)).toMatchObject({
      success: true,
      data: { method: "bank", details: null },
    });
    expect(payoutChoiceSchema(offer, { bankComplete: false }).safeParse(form).success).toBe(false);
  });

  it("asks for the password", () => {
    const result = payoutChoiceSchema(offer, { bankComplete: false }).safeParse({
      method: "paypal",
      paypalEmail: "a@b.co",
    });
    expect(issues(result)).toEqual({ current: "Account.Common:validation.currentPassword" });
  });
});

describe("masking", () => {
  it.each([
    ["DE89370400440532013000", "•••• 3000"],
    ["12 34 56", "•••• 3456"],
    ["abc", "••••"],
  ])("%s → %s", (value, masked) => {
    expect(maskValue(value)).toBe(masked);
  });

  it("shows the IBAN field in the hint, else the first", () => {
    expect(
      bankDetailsMask([
        { label: "Holder", value: "Ana" },
        { label: "IBAN", value: "DE89370400440532013000" },
      ]),
    ).toBe("IBAN •••• 3000");
    expect(bankDetailsMask([{ label: "Account", value: "99887766" }])).toBe("Account •••• 7766");
    expect(bankDetailsMask([])).toBeNull();
  });

  it("counts details complete only when every field the merchant asks for now is filled", () => {
    const saved = [{ label: "IBAN", value: "DE89370400440532013000" }];
    expect(bankDetailsComplete(saved, { ...offer, bankFields: ["IBAN"] })).toBe(true);
    expect(bankDetailsComplete(saved, offer)).toBe(false);
    expect(bankDetailsComplete(null, offer)).toBe(false);
  });
});
