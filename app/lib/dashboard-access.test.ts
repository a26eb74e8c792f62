import { describe, expect, it } from "vitest";
import { areaCheck, FEATURES, HELPFUL_LINKS, showWelcome, visiblePending } from "./dashboard-access";

const admin = areaCheck({ role: "admin", permissions: [] });
const campaignsOnly = areaCheck({ role: "staff", permissions: ["campaigns"] });
const salesAndPayouts = areaCheck({ role: "staff", permissions: ["sales", "payouts", "settings"] });
const nothing = areaCheck({ role: "staff", permissions: [] });

describe("dashboard access", () => {
  const counts = { sales: 3, affiliates: 2, commissions: 1000, commissionsMore: true };

  it.each([
    ["admin", admin, { sales: 3, affiliates: 2, commissions: 1000, commissionsMore: true }],
    ["staff: campaigns", campaignsOnly, { sales: null, affiliates: null, commissions: null, commissionsMore: false }],
    [
      "staff: sales, payouts",
      salesAndPayouts,
      { sales: 3, affiliates: null, commissions: 1000, commissionsMore: true },
    ],
  ])("pending counts for %s", (_, can, expected) => {
    expect(visiblePending(counts, can)).toEqual(expected);
  });

  it("keeps features and helpful links to areas the user may open", () => {
    expect(FEATURES.filter((f) => admin(f.area)).map((f) => f.key)).toHaveLength(6);
    // The PayPal connection is the admin's, whatever staff may do with payouts;
    // Settings (where the custom domain is set) is open to every staff member.
    expect(FEATURES.filter((f) => salesAndPayouts(f.area)).map((f) => f.key)).toEqual(["customDomain"]);
    expect(FEATURES.filter((f) => campaignsOnly(f.area)).map((f) => f.key)).toEqual(["mlm"]);
    expect(HELPFUL_LINKS.filter(salesAndPayouts)).toEqual(["settings"]);
    expect(HELPFUL_LINKS.filter(nothing)).toEqual([]);
  });

  it("points the custom domain feature at Settings › Marketings, where the domain is set", () => {
    expect(FEATURES.find((f) => f.key === "customDomain")).toMatchObject({
      path: "settings/marketings",
      area: "settings",
    });
  });

  it.each([
    [false, admin, true],
    [true, admin, false],
    [false, campaignsOnly, true],
    [false, salesAndPayouts, false],
  ])("welcome banner with campaigns=%s", (hasCampaigns, can, expected) => {
    expect(showWelcome(hasCampaigns, can)).toBe(expected);
  });
});
