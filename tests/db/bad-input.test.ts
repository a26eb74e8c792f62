import { describe, expect, it } from "vitest";
import { buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// "Nothing a client sends produces a 500": a sweep of malformed requests
// against public and authenticated routes.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const PATHS = [
  "/",
  "/login",
  "/staff/login",
  "/staff/get-password",
  "/auth",
  "/api/shop",
  "/api/auth",
  "/api/auth/authorize",
  "/admin/dashboard",
  "/admin/settings/general",
  "/admin/settings/promote-link",
  "/admin/settings/branding",
  "/admin/plans/activate",
  "/admin/campaigns/x",
  "/logout",
];

const BODIES: [string, string, string][] = [
  ["broken json", "application/json", "{"],
  ["json array", "application/json", "[1,2,3]"],
  ["json null", "application/json", "null"],
  ["urlencoded garbage", "application/x-www-form-urlencoded", "%%%&&&==="],
  ["binary", "application/octet-stream", "\u0000\u0001\u0002"],
  ["wrong multipart", "multipart/form-data; boundary=x", "--y\r\nnot a part"],
];

async function loggedIn() {
  const shop = await buildShop();
  const user = await buildUser(shop.id);
  const client = new HttpClient(server.url);
  await client.postForm("/login", { email: user.email, password: TEST_PASSWORD });
  return client;
}

describe("malformed requests get a 4xx, never a 500", () => {
  it.each([false, true])("bodies (logged in: %s)", async (authed) => {
    const client = authed ? await loggedIn() : new HttpClient(server.url);
    for (const path of PATHS) {
      for (const [label, type, body] of BODIES) {
        const res = await client.request(path, { method: "POST", body, headers: { "content-type": type } });
        expect(res.status, `${label} to ${path}`).toBeLessThan(500);
      }
    }
  });

  it("odd URLs, methods and headers", async () => {
    const client = await loggedIn();
    const cases: [string, RequestInit][] = [
      ["/admin/%E0%A4%A", {}],
      ["/admin/campaigns/%00", {}],
      ["/admin/campaigns/" + "x".repeat(5000), {}],
      ["/api/auth?code=&shop=", {}],
      ["/api/auth/authorize?shop=%00", {}],
      ["/api/auth/authorize?shop=evil.example.com", {}],
      ["/staff/get-password?token=" + "%FF".repeat(100), {}],
      ["/locales/en/Nope.json", {}],
      ["/locales/../package.json", {}],
      ["/admin/dashboard", { method: "DELETE" }],
      ["/api/shop", { method: "PUT", body: "{}", headers: { "content-type": "application/json" } }],
      ["/admin/dashboard", { headers: { cookie: "__merchant_session=" + "a".repeat(4000) } }],
      ["/admin/dashboard", { headers: { authorization: "Bearer not-a-jwt" } }],
      ["/admin/dashboard?embedded=1&shop=x&host=y&id_token=z", {}],
    ];
    for (const [path, init] of cases) {
      const res = await client.request(path, init);
      expect(res.status, `${init.method ?? "GET"} ${path.slice(0, 60)}`).toBeLessThan(500);
    }
  });
});
