import { describe, expect, it } from "vitest";
import { decideAuthStep, loginPathWithReturn, safeRedirectPath } from "./auth-steps";

describe("decideAuthStep (spec section 2, in order)", () => {
  it.each([
    // 1. plan_id wins over everything and keeps the other parameters
    [
      "?plan_id=pro&shop=a.myshopify.com&code=x",
      { type: "navigate", to: "/admin/plans/activate?shop=a.myshopify.com&code=x&plan_id=pro" },
    ],
    // 2. code: call GET /api/auth with every parameter
    [
      "?code=abc&hmac=h&shop=a.myshopify.com&host=aG9zdA&state=s&timestamp=1",
      {
        type: "call-auth",
        query: "code=abc&hmac=h&shop=a.myshopify.com&host=aG9zdA&state=s&timestamp=1",
        onSuccess: "/admin/dashboard?shop=a.myshopify.com&host=aG9zdA",
        onFailure: "/login",
        storeShop: false,
      },
    ],
    // 2 beats 3 when both are present
    [
      "?code=abc&embedded=1&shop=a.myshopify.com",
      {
        type: "call-auth",
        query: "code=abc&embedded=1&shop=a.myshopify.com",
        onSuccess: "/admin/dashboard?shop=a.myshopify.com",
        onFailure: "/login",
        storeShop: false,
      },
    ],
    // 3. embedded without redirectPath: fetch and store the shop
    [
      "?embedded=1&shop=a.myshopify.com&host=aG9zdA&id_token=t",
      {
        type: "call-auth",
        query: "embedded=1&shop=a.myshopify.com&host=aG9zdA&id_token=t",
        onSuccess: "/admin/dashboard?shop=a.myshopify.com&host=aG9zdA",
        onFailure: "error-screen",
        storeShop: true,
      },
    ],
    // 3. embedded with redirectPath: go there with the remaining parameters
    [
      "?embedded=1&redirectPath=%2Fadmin%2Fsales&shop=a.myshopify.com&host=aG9zdA",
      { type: "navigate", to: "/admin/sales?embedded=1&shop=a.myshopify.com&host=aG9zdA" },
    ],
    // 3. a redirectPath to another origin is ignored
    [
      "?embedded=1&redirectPath=https%3A%2F%2Fevil.example&shop=a.myshopify.com",
      {
        type: "call-auth",
        query: "embedded=1&redirectPath=https%3A%2F%2Fevil.example&shop=a.myshopify.com",
        onSuccess: "/admin/dashboard?shop=a.myshopify.com",
        onFailure: "error-screen",
        storeShop: true,
      },
    ],
    // 4. nothing: the dashboard
    ["", { type: "navigate", to: "/admin/dashboard" }],
    // 4. a shop: the platform's authorization URL
    ["?shop=a.myshopify.com", { type: "navigate", to: "/api/auth/authorize?shop=a.myshopify.com", topLevel: false }],
    // the authorization was refused: the error screen, not another round
    ["?shop=a.myshopify.com&oauth_refused=1", { type: "refused" }],
  ])("%s", (search, expected) => {
    expect(decideAuthStep(search, { inIframe: false })).toEqual(expected);
  });

  it("leaves an iframe for the authorization URL", () => {
    expect(decideAuthStep("?shop=a.myshopify.com", { inIframe: true })).toEqual({
      type: "navigate",
      to: "/api/auth/authorize?shop=a.myshopify.com",
      topLevel: true,
    });
  });
});

describe("safeRedirectPath", () => {
  it.each([
    ["/admin/sales", "/admin/sales"],
    ["/admin/sales?x=1", "/admin/sales?x=1"],
    ["//evil.example/x", null],
    ["https://evil.example", null],
    ["/\\evil.example", null],
    ["admin", null],
    [null, null],
    [`/admin/sales?q=${"a".repeat(2030)}`, `/admin/sales?q=${"a".repeat(2030)}`],
    [`/admin/sales?q=${"a".repeat(2040)}`, null],
  ])("%s -> %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });
});

describe("loginPathWithReturn", () => {
  it.each([
    ["/admin/sales", "/login?redirectTo=%2Fadmin%2Fsales"],
    [`/admin/sales?q=${"a".repeat(2000)}`, `/login?redirectTo=%2Fadmin%2Fsales%3Fq%3D${"a".repeat(2000)}`],
    // Encoded it is over 2 KB: no way back rather than a 16 KB Location.
    [`/admin/sales?q=${"%".repeat(700)}`, "/login"],
    [`/admin/sales?q=${"a".repeat(16_000)}`, "/login"],
  ])("%s", (back, expected) => {
    expect(loginPathWithReturn("/login", back)).toBe(expected);
  });
});
