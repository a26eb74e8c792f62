import { API_SECRET_KEY, RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { describe, expect, it } from "vitest";
import { appProxySignature, signedProxyUrl } from "./app-proxy-signature";

describe("app proxy signature (the simulator's copy of Shopify's)", () => {
  it("matches the signature Shopify's test helper makes", async () => {
    const signed = await setUpValidRequest(
      { type: RequestType.Public, store: "demo-store", apiSecretKey: API_SECRET_KEY },
      new Request("https://app.example/proxy/signup?path_prefix=%2Fapps%2Faffiliate"),
    );
    const params = new URL(signed.url).searchParams;
    expect(appProxySignature(params, API_SECRET_KEY)).toBe(params.get("signature"));
  });

  it("changes with any parameter", () => {
    const url = new URL(
      signedProxyUrl("https://app.example", "demo-store.myshopify.com", "/login", "secret", 1_700_000_000_000),
    );
    expect(url.pathname).toBe("/proxy/login");
    const sig = url.searchParams.get("signature");
    url.searchParams.set("shop", "other.myshopify.com");
    expect(appProxySignature(url.searchParams, "secret")).not.toBe(sig);
  });
});
