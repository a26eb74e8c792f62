import { describe, expect, it } from "vitest";
import { appTypeFor } from "./app-type";

describe("appTypeFor", () => {
  it.each([
    ["/admin/referrals", "referral"],
    ["/admin/referrals/", "referral"],
    ["/staff/referrals/history", "referral"],
    ["/admin/referrals/history/", "referral"],
    ["/admin/referrals/ref_123", "affiliate"],
    ["/admin/dashboard", "affiliate"],
    ["/admin/settings/referrals", "affiliate"],
    ["/account/referrals", "affiliate"],
    ["/admin", "affiliate"],
  ])("%s is %s", (path, type) => {
    expect(appTypeFor(path)).toBe(type);
  });
});
