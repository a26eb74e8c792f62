import { describe, expect, it } from "vitest";
import { attributeOrder, type AffiliateFacts, type AttributionInput } from "./attribute-order";
import { englishReason } from "../../../tests/support/attribution-reasons";

const placedAt = new Date("2026-03-10T12:00:00Z");
const daysAgo = (n: number) => new Date(placedAt.getTime() - n * 86_400_000);

function aff(id: string, over: Partial<AffiliateFacts> = {}): AffiliateFacts {
  return {
    id,
    name: id.toUpperCase(),
    code: `${id.toUpperCase()}1`,
    email: `${id}@aff.example`,
    customerGid: null,
    status: "approved",
    cookieDays: 30,
    ...over,
  };
}

function input(over: Partial<AttributionInput> = {}): AttributionInput {
  return {
    placedAt,
    buyerEmail: "buyer@example.com",
    buyerCustomerGid: "gid://shopify/Customer/9",
    attributionModel: "last_click",
    coupon: null,
    links: [],
    pixel: null,
    lifetime: null,
    ...over,
  };
}

describe("attributeOrder", () => {
  it.each<[string, Partial<AttributionInput>, string | null, string, RegExp]>([
    ["nothing at all", {}, null, "none", /^Not credited: no affiliate coupon/],
    ["a coupon", { coupon: { code: "ANNA10", affiliate: aff("a") } }, "a", "coupon", /coupon ANNA10 was used/],
    [
      "coupon beats link",
      {
        coupon: { code: "ANNA10", affiliate: aff("a") },
        links: [{ affiliate: aff("b"), clickId: "c1", at: daysAgo(1) }],
      },
      "a",
      "coupon",
      /coupon/,
    ],
    [
      "a coupon the affiliate's own link applied",
      {
        autoApplyLinks: true,
        coupon: { code: "ANNA10", affiliate: aff("a") },
        links: [{ affiliate: aff("a"), clickId: "c1", at: daysAgo(1) }],
      },
      "a",
      "coupon",
      /^Credited to A \(A1\): their link applied discount code ANNA10 automatically at checkout\.$/,
    ],
    [
      "links that apply codes, but the click is another affiliate's: typed",
      {
        autoApplyLinks: true,
        coupon: { code: "ANNA10", affiliate: aff("a") },
        links: [{ affiliate: aff("b"), clickId: "c1", at: daysAgo(1) }],
      },
      "a",
      "coupon",
      /coupon ANNA10 was used at checkout/,
    ],
    [
      "the own link without the setting: typed",
      {
        coupon: { code: "ANNA10", affiliate: aff("a") },
        links: [{ affiliate: aff("a"), clickId: "c1", at: daysAgo(1) }],
      },
      "a",
      "coupon",
      /coupon ANNA10 was used at checkout/,
    ],
    [
      "a link",
      { links: [{ affiliate: aff("b"), clickId: "c1", at: daysAgo(2) }] },
      "b",
      "link",
      /referral link click 2 days before the order, within the 30-day cookie window/,
    ],
    [
      "link beats pixel",
      {
        links: [{ affiliate: aff("b"), clickId: "c1", at: daysAgo(2) }],
        pixel: { affiliate: aff("c"), clickId: "c2", at: daysAgo(1) },
      },
      "b",
      "link",
      /referral link/,
    ],
    [
      "pixel when the cart lost the referral",
      { pixel: { affiliate: aff("c"), clickId: "c2", at: daysAgo(1) } },
      "c",
      "pixel",
      /Web Pixel matched this checkout/,
    ],
    [
      "pixel beats lifetime",
      { pixel: { affiliate: aff("c"), clickId: "c2", at: daysAgo(1) }, lifetime: aff("d") },
      "c",
      "pixel",
      /Web Pixel/,
    ],
    ["lifetime link", { lifetime: aff("d") }, "d", "lifetime", /referred by them before/],
    [
      "last click wins by default",
      {
        links: [
          { affiliate: aff("b"), clickId: "old", at: daysAgo(5) },
          { affiliate: aff("e"), clickId: "new", at: daysAgo(1) },
        ],
      },
      "e",
      "link",
      /last of 2 clicks/,
    ],
    [
      "first click when the shop says so",
      {
        attributionModel: "first_click",
        links: [
          { affiliate: aff("b"), clickId: "old", at: daysAgo(5) },
          { affiliate: aff("e"), clickId: "new", at: daysAgo(1) },
        ],
      },
      "b",
      "link",
      /first of 2 clicks/,
    ],
    [
      "a click outside the cookie window",
      { links: [{ affiliate: aff("b", { cookieDays: 7 }), clickId: "c", at: daysAgo(8) }] },
      null,
      "none",
      /outside the 7-day cookie window/,
    ],
    [
      "a click on the window's last day counts",
      { links: [{ affiliate: aff("b", { cookieDays: 7 }), clickId: "c", at: daysAgo(7) }] },
      "b",
      "link",
      /7 days before/,
    ],
    [
      "self-referral by e-mail is refused",
      { coupon: { code: "ME10", affiliate: aff("a", { email: "Buyer@Example.com" }) } },
      null,
      "none",
      /Self-referral refused: coupon ME10 points to A \(A1\), but the buyer's e-mail buyer@example.com is the affiliate's own\./,
    ],
    [
      "self-referral by customer account is refused",
      { links: [{ affiliate: aff("b", { customerGid: "gid://shopify/Customer/9" }), clickId: "c", at: daysAgo(1) }] },
      null,
      "none",
      /Self-referral refused: .* own customer account/,
    ],
    [
      "a refused coupon falls back to a valid link",
      {
        coupon: { code: "X", affiliate: aff("a", { status: "pending" }) },
        links: [{ affiliate: aff("b"), clickId: "c", at: daysAgo(1) }],
      },
      "b",
      "link",
      /referral link/,
    ],
    [
      "an affiliate who is not approved earns nothing",
      { lifetime: aff("d", { status: "inactive" }) },
      null,
      "none",
      /who is inactive, not approved/,
    ],
  ])("%s", (_name, over, affiliateId, source, reason) => {
    const decision = attributeOrder(input(over));
    expect(decision.affiliateId).toBe(affiliateId);
    expect(decision.source).toBe(source);
    expect(englishReason(decision.reason)).toMatch(reason);
  });

  it("keeps the click that won", () => {
    expect(attributeOrder(input({ links: [{ affiliate: aff("b"), clickId: "c-77", at: daysAgo(1) }] })).clickId).toBe(
      "c-77",
    );
  });

  it("says when only a referral code (no recorded click) was in the cart", () => {
    const decision = attributeOrder(input({ links: [{ affiliate: aff("b"), clickId: null, at: placedAt }] }));
    expect(englishReason(decision.reason)).toBe(
      "Credited to B (B1): their referral code was in the cart (no recorded click).",
    );
  });
});
