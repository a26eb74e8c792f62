import { describe, expect, it } from "vitest";
import { MENU_ITEMS, isMenuHidden, menuFor } from "./menu";
import { canUseArea, parsePermissions } from "./areas";

describe("menu", () => {
  it("has the twelve items of the spec, in order", () => {
    expect(MENU_ITEMS.map((i) => i.key)).toEqual([
      "campaigns",
      "affiliates",
      "sales",
      "payouts",
      "portals",
      "bonuses",
      "creatives",
      "notifications",
      "settings",
      "referrals",
      "pricing",
      "contactUs",
    ]);
  });

  it("shows an admin everything and a staff user only what they may use", () => {
    expect(menuFor("admin", [])).toHaveLength(12);
    expect(menuFor("staff", ["campaigns", "sales"]).map((i) => i.key)).toEqual(["campaigns", "sales", "contactUs"]);
  });

  it.each([
    // [pathname, hasPricing, needSelectPlan, hidden]
    ["/admin/dashboard", true, null, false],
    ["/admin/portals", true, null, false],
    ["/admin/portals/abc", true, null, true],
    ["/staff/portals/abc/edit", true, null, true],
    ["/admin/not-found", true, null, true],
    ["/admin/campaigns", false, null, true],
    ["/admin/plans", true, true, true],
    ["/admin/plans", true, false, true],
    ["/admin/sales", true, undefined, false],
  ] as const)("%s pricing=%s needSelectPlan=%s hidden=%s", (pathname, hasPricing, needSelectPlan, hidden) => {
    const role = pathname.startsWith("/staff") ? "staff" : "admin";
    expect(isMenuHidden({ pathname, role, hasPricing, needSelectPlan })).toBe(hidden);
  });
});

describe("areas", () => {
  it.each([
    ["admin", [], "plans", true],
    ["staff", ["settings"], "plans", false],
    ["staff", ["settings"], "paypal", false],
    ["staff", [], "dashboard", true],
    ["staff", [], "contact-us", true],
    ["staff", ["sales"], "sales", true],
    ["staff", ["sales"], "affiliates", false],
  ] as const)("%s with %j may use %s: %s", (role, permissions, area, allowed) => {
    expect(canUseArea(role, permissions, area)).toBe(allowed);
  });

  it("parses stored permissions defensively", () => {
    expect(parsePermissions('["sales","nope",3]')).toEqual(["sales"]);
    expect(parsePermissions("not json")).toEqual([]);
    expect(parsePermissions(null)).toEqual([]);
  });
});
