import { describe, expect, it } from "vitest";
import { reloadTarget, supportMailto } from "./support";

describe("supportMailto", () => {
  it("prefills the subject with product, topic and shop url", () => {
    expect(
      supportMailto({
        email: "help@example.com",
        productName: "Affiliate & Referral",
        topic: "Error",
        shopUrl: "https://a.example",
      }),
    ).toBe("mailto:help@example.com?subject=%5BAffiliate%20%26%20Referral%5D%20Error%20-%20https%3A%2F%2Fa.example");
  });

  it("leaves the shop out when unknown", () => {
    expect(supportMailto({ email: "h@e.co", productName: "P", topic: "T" })).toBe("mailto:h@e.co?subject=%5BP%5D%20T");
  });
});

describe("reloadTarget", () => {
  const href = "https://app.example/admin/sales?tab=1";
  it.each([
    [{ role: "affiliate", host: "aG9zdA" }, href],
    [
      { role: "admin", host: "aG9zdA", shopUrl: "s.myshopify.com" },
      "https://app.example/admin/sales?tab=1&host=aG9zdA",
    ],
    [
      { role: "staff", host: null, shopUrl: "https://s.example" },
      "https://app.example/admin/sales?tab=1&shop=https%3A%2F%2Fs.example",
    ],
    [{ role: "admin" }, href],
  ] as const)("%j", (opts, expected) => {
    expect(reloadTarget({ currentHref: href, ...opts })).toBe(expected);
  });
});
