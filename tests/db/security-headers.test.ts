import { createHmac } from "node:crypto";
import {
  API_KEY,
  API_SECRET_KEY,
  BASE64_HOST,
  TEST_SHOP,
  TEST_SHOP_NAME,
  getJwt,
} from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Security headers of the app's documents (issue 9, finding 10): standalone
// pages carry a Content-Security-Policy (scripts only from the app, with a
// per-response nonce for the inline ones) and may not be framed; embedded
// pages may be framed by the Shopify admin, and by a shop's own admin only
// when the shop comes from a verified session token or a signed launch
// query, never from the unsigned `shop` parameter. That a real Chromium runs
// the pages under this policy without a violation is tests/e2e/csp.test.ts.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36" };
const ATTACKER = "attacker-shop.myshopify.com";

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(server.url(path), { headers: { ...BROWSER, ...headers }, redirect: "manual" });
}

function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

function signQuery(params: Record<string, string>): string {
  const sorted = new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  const hmac = createHmac("sha256", API_SECRET_KEY).update(sorted.toString()).digest("hex");
  return new URLSearchParams({ ...params, hmac }).toString();
}

describe("standalone documents", () => {
  it("carry a CSP with a nonce on every inline script, frame protection, nosniff and a referrer policy", async () => {
    const res = await get("/login");
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    const scriptSrc = csp.get("script-src") ?? [];
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(scriptSrc.find((v) => v.startsWith("'nonce-")) ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");

    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) {
      // Inline scripts need the nonce; external ones come from the app itself.
      if (!/\bsrc=/.test(tag)) expect(tag, tag).toContain(`nonce="${nonce}"`);
      else expect(tag).toMatch(/src="\//);
    }
    // A fresh nonce per response.
    const again = directives((await get("/login")).headers.get("content-security-policy"));
    expect(again.get("script-src")).not.toEqual(scriptSrc);
  });

  it("ignore an unsigned shop parameter: no frame-ancestors for it, no preload of Shopify's script", async () => {
    const res = await get(`/login?shop=${ATTACKER}`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain(ATTACKER);
    expect(directives(csp).get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers.get("link") ?? "").not.toContain("cdn.shopify.com");
  });

  it("cover the affiliate portal pages too", async () => {
    const res = await get("/portal/no-such-shop/login");
    expect(directives(res.headers.get("content-security-policy")).get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("embedded documents", () => {
  const embeddedQuery = `embedded=1&host=${BASE64_HOST}`;

  it("may be framed by the Shopify admin, but not by the shop an unsigned parameter names", async () => {
    for (const path of [
      `/admin/dashboard?${embeddedQuery}&shop=${ATTACKER}`,
      `/auth/session-token?shop=${ATTACKER}&host=${BASE64_HOST}&shopify-reload=%2Fadmin%2Fdashboard`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBeLessThan(500);
      const all = res.headers.get("content-security-policy") ?? "";
      expect(all, path).not.toContain(ATTACKER);
      expect(directives(all).get("frame-ancestors"), path).toEqual(["https://admin.shopify.com"]);
      expect(res.headers.get("x-frame-options"), path).toBeNull();
    }
  });

  it("name the shop of a verified session token", async () => {
    const { token } = await getJwt(TEST_SHOP_NAME, API_KEY, API_SECRET_KEY);
    const res = await get(`/admin/dashboard?${embeddedQuery}&shop=${TEST_SHOP}&id_token=${token}`);
    expect(directives(res.headers.get("content-security-policy")).get("frame-ancestors")).toEqual([
      `https://${TEST_SHOP}`,
      "https://admin.shopify.com",
    ]);
    // A token signed with another secret proves nothing.
    const forged = (await getJwt(TEST_SHOP_NAME, API_KEY, "not-the-app-secret")).token;
    const refused = await get(`/admin/dashboard?${embeddedQuery}&shop=${TEST_SHOP}&id_token=${forged}`);
    expect(directives(refused.headers.get("content-security-policy")).get("frame-ancestors")).toEqual([
      "https://admin.shopify.com",
    ]);
  });

  it("name the shop of a launch query Shopify signed, and not of a tampered one", async () => {
    const params = {
      embedded: "1",
      host: BASE64_HOST,
      shop: TEST_SHOP,
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    const signed = await get(`/admin/dashboard?${signQuery(params)}`);
    expect(directives(signed.headers.get("content-security-policy")).get("frame-ancestors")).toContain(
      `https://${TEST_SHOP}`,
    );
    const tampered = signQuery(params).replace(`shop=${TEST_SHOP}`, `shop=${ATTACKER}`);
    const res = await get(`/admin/dashboard?${tampered}`);
    expect(res.headers.get("content-security-policy") ?? "").not.toContain(ATTACKER);
  });
});
