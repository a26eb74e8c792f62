import { describe, expect, it } from "vitest";
import {
  cartAttributes,
  cartMarker,
  cookieDays,
  cookieString,
  decideVisit,
  decodeReferral,
  encodeReferral,
  paramName,
  proxyUrl,
  readLanding,
  shouldUpdateCart,
  type Referral,
} from "./storefront-logic";

const CLICK = "0mwqhcm1abrVTZrivvgJmUVhbnh";
const OTHER_CLICK = "0mwqhcm1abrAAAAAAAAAAAAAAAA";

describe("settings", () => {
  it.each([
    ["ref", "ref"],
    [" aff ", "aff"],
    ["", "ref"],
    ["a b", "ref"],
    ["x".repeat(33), "ref"],
    [undefined, "ref"],
  ])("paramName(%j) is %j", (raw, expected) => {
    expect(paramName(raw)).toBe(expected);
  });

  it.each([
    ["30", 30],
    ["7", 7],
    [60, 60],
    ["365", 365],
    ["0", 30],
    ["366", 30],
    ["1.5", 30],
    ["", 30],
    ["abc", 30],
    [undefined, 30],
  ])("cookieDays(%j) is %j", (raw, expected) => {
    expect(cookieDays(raw)).toBe(expected);
  });
});

describe("cookie value", () => {
  it.each<[Referral, string]>([
    [{ code: "JANE10", clickId: CLICK }, `JANE10.${CLICK}`],
    [{ code: "JANE10", clickId: null }, "JANE10."],
  ])("encodes %j as %j and back", (referral, encoded) => {
    expect(encodeReferral(referral)).toBe(encoded);
    expect(decodeReferral(encoded)).toEqual(referral);
  });

  it.each([null, undefined, "", "JANE10", "jane10.", "J.", `JANE10.short`, `JANE10.${CLICK}<`, "A B.", `.${CLICK}`])(
    "refuses %j",
    (raw) => {
      expect(decodeReferral(raw)).toBeNull();
    },
  );
});

describe("readLanding", () => {
  it.each([
    ["?ref=jane10", "ref", { code: "JANE10", clickId: null }],
    [`?ref=JANE10&_aff_click=${CLICK}`, "ref", { code: "JANE10", clickId: CLICK }],
    [`?aff=JANE10&_aff_click=${CLICK}`, "aff", { code: "JANE10", clickId: CLICK }],
    ["?ref=JANE10&_aff_click=bad!", "ref", { code: "JANE10", clickId: null }],
    ["?aff=JANE10", "ref", null],
    ["?ref=a", "ref", null],
    ["?ref=", "ref", null],
    ["", "ref", null],
  ])("%j with %s gives %j", (search, param, expected) => {
    expect(readLanding(search, param)).toEqual(expected);
  });
});

describe("decideVisit", () => {
  const linked: Referral = { code: "JANE10", clickId: CLICK };
  const typed: Referral = { code: "JANE10", clickId: null };
  it.each<[string, Referral | null, Referral | null, ReturnType<typeof decideVisit>]>([
    ["no referral anywhere", null, null, { referral: null, writeCookie: false, callProxy: false }],
    ["a later page keeps the stored one", null, linked, { referral: linked, writeCookie: false, callProxy: false }],
    ["a link through /r/ is stored", linked, null, { referral: linked, writeCookie: true, callProxy: false }],
    [
      "the same /r/ link again writes nothing",
      linked,
      linked,
      { referral: linked, writeCookie: false, callProxy: false },
    ],
    [
      "a new /r/ click replaces the old",
      { code: "JANE10", clickId: OTHER_CLICK },
      linked,
      { referral: { code: "JANE10", clickId: OTHER_CLICK }, writeCookie: true, callProxy: false },
    ],
    ["a typed code asks the proxy", typed, null, { referral: typed, writeCookie: true, callProxy: true }],
    [
      "a typed code already recorded is not recorded again",
      typed,
      linked,
      { referral: linked, writeCookie: false, callProxy: false },
    ],
    [
      "a typed code whose proxy call failed asks again",
      typed,
      typed,
      { referral: typed, writeCookie: true, callProxy: true },
    ],
    [
      "another affiliate's code wins (newest referral)",
      { code: "BOB", clickId: null },
      linked,
      { referral: { code: "BOB", clickId: null }, writeCookie: true, callProxy: true },
    ],
  ])("%s", (_name, landing, stored, expected) => {
    expect(decideVisit(landing, stored)).toEqual(expected);
  });
});

describe("app proxy and cart", () => {
  it("builds the proxy URL under the storefront root", () => {
    expect(proxyUrl("/", "JANE10", "https://shop.example/p?ref=jane10", "https://blog.example/")).toBe(
      "/apps/affiliate/click?code=JANE10&landing=https%3A%2F%2Fshop.example%2Fp%3Fref%3Djane10&referrer=https%3A%2F%2Fblog.example%2F",
    );
    expect(proxyUrl("/fr", "JANE10", "https://shop.example/fr", "")).toBe(
      "/fr/apps/affiliate/click?code=JANE10&landing=https%3A%2F%2Fshop.example%2Ffr",
    );
  });

  it("writes both attributes, the click id empty when unknown", () => {
    expect(cartAttributes({ code: "JANE10", clickId: CLICK })).toEqual({
      _affiliate_ref: "JANE10",
      _affiliate_click: CLICK,
    });
    expect(cartAttributes({ code: "JANE10", clickId: null })).toEqual({
      _affiliate_ref: "JANE10",
      _affiliate_click: "",
    });
  });

  it("updates the cart once per value and cart", () => {
    const referral: Referral = { code: "JANE10", clickId: CLICK };
    const marker = cartMarker(referral, "cart-1");
    expect(shouldUpdateCart(referral, "cart-1", null)).toBe(true);
    expect(shouldUpdateCart(referral, "cart-1", marker)).toBe(false);
    expect(shouldUpdateCart(referral, "cart-2", marker)).toBe(true);
    expect(shouldUpdateCart({ code: "JANE10", clickId: null }, "cart-1", marker)).toBe(true);
    expect(shouldUpdateCart(null, "cart-1", null)).toBe(false);
  });

  it("builds first-party cookies", () => {
    expect(cookieString("_aff_ref", "JANE10.", 2592000, true)).toBe(
      "_aff_ref=JANE10.; path=/; max-age=2592000; SameSite=Lax; Secure",
    );
    expect(cookieString("_aff_cart", "x", null, false)).toBe("_aff_cart=x; path=/; SameSite=Lax");
  });
});
