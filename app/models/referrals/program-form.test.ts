import { describe, expect, it } from "vitest";
import { programFromForm, programToForm, referralProgramFormCheck, type ReferralProgramForm } from "./program-form";
import { DEFAULT_REFERRAL_PROGRAM } from "./program-settings";

const base = (): ReferralProgramForm => programToForm(DEFAULT_REFERRAL_PROGRAM, 2);

describe("programToForm / programFromForm", () => {
  it("round-trips the defaults", () => {
    expect(programFromForm(base(), 2)).toEqual({ ok: true, program: DEFAULT_REFERRAL_PROGRAM });
  });

  it("shows basis points as percents and minor units in the currency's decimals", () => {
    expect(base()).toMatchObject({ friendValue: "10", advocateValue: "10", friendMinimumOrder: "0" });
    const yen = programToForm(
      { ...DEFAULT_REFERRAL_PROGRAM, advocateReward: { kind: "store_credit", type: "fixed_amount", value: 500 } },
      0,
    );
    expect(yen.advocateValue).toBe("500");
  });

  it.each([
    // field, typed, currency decimals, stored path, stored value
    ["friendValue", "12.5", 2, ["friendReward", "value"], 1250],
    ["friendMinimumOrder", "49.99", 2, ["friendReward", "minimumOrder"], 4999],
    ["friendMinimumOrder", "", 2, ["friendReward", "minimumOrder"], 0],
    ["friendMinimumOrder", "5000", 0, ["friendReward", "minimumOrder"], 5000],
    ["advocateValue", "7,5", 2, ["advocateReward", "value"], 750],
    ["holdDays", "30", 2, ["holdDays"], 30],
  ] as const)("%s typed %j (exponent %i) is stored as %j=%i", (field, typed, exponent, path, value) => {
    const result = programFromForm({ ...programToForm(DEFAULT_REFERRAL_PROGRAM, exponent), [field]: typed }, exponent);
    expect(result.ok).toBe(true);
    let stored: unknown = result.ok ? result.program : null;
    for (const key of path) stored = (stored as Record<string, unknown>)[key];
    expect(stored).toBe(value);
  });

  it.each([
    ["friendValue", "abc", "Campaigns:validation.decimal"],
    ["friendValue", "0", "Referrals:validation.percentage"],
    ["friendValue", "100.01", "Global:validation.numberMax"],
    ["friendValue", "-5", "Campaigns:validation.decimal"],
    ["friendMinimumOrder", "1.234", "Campaigns:validation.decimals"],
    ["advocateValue", "0", "Referrals:validation.amount"],
    ["holdDays", "", "Global:validation.number"],
    ["holdDays", "1.5", "Global:validation.whole"],
    ["holdDays", "400", "Global:validation.numberMax"],
    ["burstThreshold", "1", "Global:validation.numberMin"],
    ["couponSiteThreshold", "1e3", "Campaigns:validation.decimal"],
    ["widgetColor", "blue", "Referrals:validation.color"],
    ["widgetButtonText", "x".repeat(41), "Global:validation.textMax"],
  ] as const)("%s typed %j is refused with %s", (field, typed, key) => {
    const result = programFromForm({ ...base(), [field]: typed }, 2);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fields[field]).toMatch(new RegExp(`^${key.replace(".", "\\.")}`));
  });

  it("takes no amount for free shipping and a fixed amount for a fixed discount", () => {
    const free = programFromForm({ ...base(), friendType: "free_shipping", friendValue: "nonsense" }, 2);
    expect(free.ok && free.program.friendReward).toMatchObject({ type: "free_shipping", value: 0 });
    const fixed = programFromForm({ ...base(), friendType: "fixed_amount", friendValue: "5" }, 2);
    expect(fixed.ok && fixed.program.friendReward.value).toBe(500);
  });

  it("reads a store-credit or cash reward as an amount even when the discount type says percent", () => {
    const r = programFromForm({ ...base(), advocateKind: "cash", advocateType: "percentage", advocateValue: "150" }, 2);
    expect(r.ok && r.program.advocateReward.value).toBe(15000);
  });

  it("refuses an unknown key and a wrong type", () => {
    expect(programFromForm({ ...base(), extra: 1 }, 2).ok).toBe(false);
    expect(programFromForm({ ...base(), enabled: "yes" }, 2).ok).toBe(false);
  });

  it("gives the browser the same messages through the form check", () => {
    const parsed = referralProgramFormCheck(2).safeParse({ ...base(), friendValue: "0" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["friendValue"],
      message: "Referrals:validation.percentage",
    });
  });
});
