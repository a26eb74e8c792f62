import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import * as logic from "~/models/tracking/storefront-logic";
import { parseReferralCode } from "~/models/tracking/referral-code";

// The theme asset is plain JavaScript served as is. It runs here in a
// node:vm context with a fake document (cookie jar), location and fetch, and
// its pure functions are checked against app/models/tracking/storefront-logic.ts.
const ASSET = readFileSync(
  path.resolve(__dirname, "../../extensions/affiliate-tracking/assets/affiliate-tracking.js"),
  "utf8",
);
const CLICK = "0mwqhcm1abrVTZrivvgJmUVhbnh";
const PROXY_CLICK = "0mwqhcm1abrPROXYPROXYPROXYP";

interface FetchCall {
  url: string;
  init: { method?: string; body?: string; headers?: Record<string, string> } | undefined;
}

function storefront(options: {
  url: string;
  cookies?: Record<string, string>;
  referrer?: string;
  param?: string;
  days?: string;
  proxyClickId?: string | null;
  // Shopify's Customer Privacy API on the page: whether marketing is allowed
  // (undefined: no API), or "fails" when it does not load.
  marketing?: boolean | "fails";
}) {
  const jar = new Map(Object.entries(options.cookies ?? {}));
  const cookieWrites: string[] = [];
  const calls: FetchCall[] = [];
  const location = new URL(options.url);
  const listeners = new Map<string, ((event: { detail: unknown }) => void)[]>();
  const document = {
    addEventListener: (type: string, fn: (event: { detail: unknown }) => void) =>
      listeners.set(type, [...(listeners.get(type) ?? []), fn]),
    removeEventListener: (type: string, fn: (event: { detail: unknown }) => void) =>
      listeners.set(
        type,
        (listeners.get(type) ?? []).filter((f) => f !== fn),
      ),
    currentScript: { dataset: { param: options.param ?? "ref", days: options.days ?? "30" } },
    referrer: options.referrer ?? "",
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
    set cookie(value: string) {
      cookieWrites.push(value);
      const [pair] = value.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    },
  };
  const fetch = async (url: string, init?: FetchCall["init"]) => {
    calls.push({ url, init });
    if (url.startsWith("/apps/affiliate/click")) {
      return {
        ok: true,
        json: async () => ({ click_id: options.proxyClickId === undefined ? PROXY_CLICK : options.proxyClickId }),
      };
    }
    if (url === "/cart/update.js") {
      jar.set("cart", "cart-token-1"); // Shopify creates the cart (and its cookie) on first write
      return { ok: true, json: async () => ({}) };
    }
    return { ok: false, json: async () => null };
  };
  const sandbox: Record<string, unknown> = {
    document,
    fetch,
    URLSearchParams,
    location: { href: location.href, search: location.search, protocol: location.protocol },
    Shopify: {
      routes: { root: "/" },
      ...(options.marketing === undefined
        ? {}
        : {
            customerPrivacy: { marketingAllowed: () => options.marketing === true },
            loadFeatures: (_features: unknown, done: (error: unknown) => void) =>
              done(options.marketing === "fails" ? new Error("not loaded") : false),
          }),
    },
  };
  sandbox.window = sandbox;
  const context = vm.createContext(sandbox);
  vm.runInContext(ASSET, context, { filename: "affiliate-tracking.js" });
  const api = sandbox.AffiliateTracking as Record<string, (...args: any[]) => any> & { ready: Promise<void> };
  const dispatch = (type: string, detail: unknown) => (listeners.get(type) ?? []).forEach((fn) => fn({ detail }));
  return { api, jar, cookieWrites, calls, ready: api.ready, dispatch };
}

describe("affiliate-tracking.js on a storefront page", () => {
  it("keeps code and click id from a /r/ link and writes the cart attributes once", async () => {
    const page = storefront({ url: `https://shop.example/products/x?ref=jane10&_aff_click=${CLICK}` });
    await page.ready;
    expect(page.jar.get("_aff_ref")).toBe(`JANE10.${CLICK}`);
    expect(page.cookieWrites[0]).toBe(`_aff_ref=JANE10.${CLICK}; path=/; max-age=2592000; SameSite=Lax; Secure`);
    expect(page.calls.map((c) => c.url)).toEqual(["/cart/update.js"]); // no proxy call: the click is recorded
    const update = page.calls[0]!;
    expect(update.init?.method).toBe("POST");
    expect(JSON.parse(update.init!.body!)).toEqual({
      attributes: { _affiliate_ref: "JANE10", _affiliate_click: CLICK },
    });
    expect(page.jar.get("_aff_cart")).toBe(`JANE10.${CLICK}|cart-token-1`);

    // The next page of the visit: same referral, same cart, nothing to do.
    const next = storefront({ url: "https://shop.example/cart", cookies: Object.fromEntries(page.jar) });
    await next.ready;
    expect(next.calls).toEqual([]);
    expect(next.cookieWrites).toEqual([]);
  });

  it("asks the app proxy for a click id when the code came without one", async () => {
    const page = storefront({
      url: "https://shop.example/?ref=Jane10",
      referrer: "https://social.example/post",
      days: "7",
    });
    await page.ready;
    const [proxy, cart] = page.calls;
    expect(proxy!.url).toBe(
      "/apps/affiliate/click?code=JANE10&landing=https%3A%2F%2Fshop.example%2F%3Fref%3DJane10&referrer=https%3A%2F%2Fsocial.example%2Fpost",
    );
    expect(page.cookieWrites[0]).toBe("_aff_ref=JANE10.; path=/; max-age=604800; SameSite=Lax; Secure");
    expect(page.jar.get("_aff_ref")).toBe(`JANE10.${PROXY_CLICK}`);
    expect(cart!.url).toBe("/cart/update.js");
    expect(JSON.parse(cart!.init!.body!)).toEqual({
      attributes: { _affiliate_ref: "JANE10", _affiliate_click: PROXY_CLICK },
    });

    // A reload with the same ?ref= does not record a second click.
    const reload = storefront({ url: "https://shop.example/?ref=Jane10", cookies: Object.fromEntries(page.jar) });
    await reload.ready;
    expect(reload.calls).toEqual([]);
  });

  it("keeps the code without a click id when the proxy knows no such code", async () => {
    const page = storefront({ url: "https://shop.example/?ref=NOBODY", proxyClickId: null });
    await page.ready;
    expect(page.jar.get("_aff_ref")).toBe("NOBODY.");
    expect(JSON.parse(page.calls[1]!.init!.body!)).toEqual({
      attributes: { _affiliate_ref: "NOBODY", _affiliate_click: "" },
    });
  });

  it("uses the merchant's parameter name and does nothing without a referral", async () => {
    const ignored = storefront({ url: "https://shop.example/?ref=JANE10", param: "aff" });
    await ignored.ready;
    expect(ignored.calls).toEqual([]);
    expect(ignored.cookieWrites).toEqual([]);

    const used = storefront({ url: `https://shop.example/?aff=JANE10&_aff_click=${CLICK}`, param: "aff" });
    await used.ready;
    expect(used.jar.get("_aff_ref")).toBe(`JANE10.${CLICK}`);
  });
});

describe("affiliate-tracking.js and the visitor's consent", () => {
  const url = `https://shop.example/?ref=JANE10&_aff_click=${CLICK}`;

  it("tracks at once where the Customer Privacy API allows marketing", async () => {
    const page = storefront({ url, marketing: true });
    await page.ready;
    expect(page.jar.get("_aff_ref")).toBe(`JANE10.${CLICK}`);
    expect(page.calls.map((c) => c.url)).toEqual(["/cart/update.js"]);
  });

  it("stores and sends nothing until the visitor allows marketing, then tracks", async () => {
    const page = storefront({ url, marketing: false });
    await page.ready;
    expect(page.cookieWrites).toEqual([]);
    expect(page.calls).toEqual([]);
    page.dispatch("visitorConsentCollected", { marketingAllowed: false, analyticsAllowed: true });
    expect(page.cookieWrites).toEqual([]);
    page.dispatch("visitorConsentCollected", { marketingAllowed: true });
    await page.api.ready;
    expect(page.jar.get("_aff_ref")).toBe(`JANE10.${CLICK}`);
    expect(page.calls.map((c) => c.url)).toEqual(["/cart/update.js"]);
  });

  it("tracks nothing when the Customer Privacy API fails to load", async () => {
    const page = storefront({ url, marketing: "fails" });
    await page.ready;
    expect(page.cookieWrites).toEqual([]);
    expect(page.calls).toEqual([]);
  });
});

describe("affiliate-tracking.js matches storefront-logic.ts", () => {
  const { api } = storefront({ url: "https://shop.example/" });
  const referrals = [
    null,
    { code: "JANE10", clickId: CLICK },
    { code: "JANE10", clickId: null },
    { code: "BOB", clickId: null },
    { code: "JANE10", clickId: PROXY_CLICK },
  ];
  const same = (name: string, a: unknown, b: unknown) =>
    expect(JSON.parse(JSON.stringify(a ?? null)), name).toEqual(JSON.parse(JSON.stringify(b ?? null)));

  it("on codes, click ids and settings", () => {
    for (const raw of ["jane10", " JANE_10 ", "ab", "a b", "x".repeat(33), "", undefined, 7]) {
      same(`parseReferralCode(${raw})`, api.parseReferralCode!(raw), parseReferralCode(raw));
    }
    for (const raw of [CLICK, "short", "bad!bad!bad", "", null])
      same(`isClickId(${raw})`, api.isClickId!(raw), logic.isClickId(raw));
    for (const raw of ["ref", " aff ", "", "a b", undefined])
      same(`paramName(${raw})`, api.paramName!(raw), logic.paramName(raw));
    for (const raw of ["30", "0", "366", "1.5", "", 12, undefined])
      same(`cookieDays(${raw})`, api.cookieDays!(raw), logic.cookieDays(raw));
  });

  it("on cookie values and landings", () => {
    for (const raw of [`JANE10.${CLICK}`, "JANE10.", "jane10.", "JANE10", "", null, `JANE10.${CLICK}!`]) {
      same(`decodeReferral(${raw})`, api.decodeReferral!(raw), logic.decodeReferral(raw));
    }
    for (const r of referrals.filter(Boolean)) same(`encodeReferral`, api.encodeReferral!(r), logic.encodeReferral(r!));
    for (const search of [
      "?ref=jane10",
      `?ref=JANE10&_aff_click=${CLICK}`,
      "?ref=a",
      "",
      "?aff=JANE10",
      // Other apps' links of imported affiliates (ADR 048).
      "?sca_ref=2435465.xNnJWu9WKq",
      "?rfsn=123456.abc123",
      "?sca_ref=921&ref=JANE10",
      "?sca_ref=..",
    ]) {
      same(`readLanding(${search})`, api.readLanding!(search, "ref"), logic.readLanding(search, "ref"));
    }
  });

  it("on visit decisions, proxy URLs and cart writes", () => {
    for (const landing of referrals) {
      for (const stored of referrals)
        same(`decideVisit`, api.decideVisit!(landing, stored), logic.decideVisit(landing, stored));
    }
    for (const [root, referrer] of [
      ["/", ""],
      ["/fr", "https://a.example/?q=1 2"],
      ["/de/", "x"],
    ]) {
      same(
        "proxyUrl",
        api.proxyUrl!(root, "JANE10", "https://shop.example/?ref=x&y=1", referrer),
        logic.proxyUrl(root!, "JANE10", "https://shop.example/?ref=x&y=1", referrer!),
      );
    }
    for (const r of referrals.filter(Boolean)) {
      same("cartAttributes", api.cartAttributes!(r), logic.cartAttributes(r!));
      for (const token of [null, "cart-1"]) {
        same("cartMarker", api.cartMarker!(r, token), logic.cartMarker(r!, token));
        for (const last of [null, logic.cartMarker(r!, "cart-1")])
          same("shouldUpdateCart", api.shouldUpdateCart!(r, token, last), logic.shouldUpdateCart(r, token, last));
      }
    }
    same(
      "cookieString",
      api.cookieString!("_aff_ref", "JANE10.", 60, true),
      logic.cookieString("_aff_ref", "JANE10.", 60, true),
    );
    same(
      "cookieString",
      api.cookieString!("_aff_cart", "x", null, false),
      logic.cookieString("_aff_cart", "x", null, false),
    );
    for (const privacy of [undefined, null, {}, { marketingAllowed: () => true }, { marketingAllowed: () => false }]) {
      same("trackingAllowed", api.trackingAllowed!(privacy), logic.trackingAllowed(privacy));
    }
  });
});
