import { describe, expect, it } from "vitest";
import { keptParams, navMenuTarget, withParam } from "./embedded-params";

describe("withParam", () => {
  it.each([
    ["?installing=1", "yearly", "?installing=1&interval=yearly"],
    ["?installing=1&interval=yearly", "monthly", "?installing=1&interval=monthly"],
    [
      "?host=aG9zdA&shop=a.myshopify.com&embedded=1&installing=1",
      "yearly",
      "?host=aG9zdA&shop=a.myshopify.com&embedded=1&installing=1&interval=yearly",
    ],
    ["?upgrade=mlm", "yearly", "?upgrade=mlm&interval=yearly"],
    ["", "yearly", "?interval=yearly"],
  ])("%s with interval=%s gives %s", (search, interval, expected) => {
    expect(withParam(search, "interval", interval)).toBe(expected);
  });
});

describe("keptParams", () => {
  it("keeps only the embedded parameters and adds the extra ones", () => {
    const url = new URL("https://app.example/admin?host=aG9zdA&installing=1&shop=a.myshopify.com");
    expect(keptParams(url, { installing: "1" })).toBe("host=aG9zdA&shop=a.myshopify.com&installing=1");
  });
});

describe("navMenuTarget", () => {
  const embedded = new URL(
    "https://app.example/admin/dashboard?embedded=1&host=aG9zdA&shop=a.myshopify.com&id_token=x",
  );
  it.each([
    // The menu's own links: the embedded parameters come along, the one-time id_token does not.
    ["/admin/campaigns", embedded, "/admin/campaigns?host=aG9zdA&shop=a.myshopify.com&embedded=1"],
    [
      "/admin/sales?status=pending",
      embedded,
      "/admin/sales?status=pending&host=aG9zdA&shop=a.myshopify.com&embedded=1",
    ],
    ["/admin/sales?shop=b.myshopify.com", embedded, "/admin/sales?shop=b.myshopify.com&host=aG9zdA&embedded=1"],
    [
      "https://app.example/admin/payouts#open",
      embedded,
      "/admin/payouts?host=aG9zdA&shop=a.myshopify.com&embedded=1#open",
    ],
    ["settings", embedded, "/admin/settings?host=aG9zdA&shop=a.myshopify.com&embedded=1"],
    // A standalone page (no parameters to keep) navigates to the link as it is.
    ["/admin/campaigns", new URL("https://app.example/admin/dashboard"), "/admin/campaigns"],
    // Leaving the app is App Bridge's business, not the router's.
    ["https://admin.shopify.com/store/a/orders", embedded, null],
    ["//evil.example/admin", embedded, null],
  ])("%s from %s leads to %s", (href, current, expected) => {
    expect(navMenuTarget(href, current)).toBe(expected);
  });
});
