import { describe, expect, it } from "vitest";
import { chooseAdminLanguage, chooseAffiliateLanguage, matchAcceptLanguage } from "./choose-language";

describe("the admin's language", () => {
  it.each([
    ["de", "de"],
    ["jp", "jp"],
    ["ar", "en"], // account coverage only: the admin cannot be in it
    ["bo", "en"],
    ["xx", "en"],
    [null, "en"],
    ["pseudo", "en"],
  ])("shop language %s gives %s", (shop, want) => {
    expect(chooseAdminLanguage(shop).code).toBe(want);
  });

  it("offers the pseudo-locale only when it is enabled", () => {
    expect(chooseAdminLanguage("pseudo", { pseudo: true }).tag).toBe("en-XA");
  });
});

describe("an affiliate's language", () => {
  it.each([
    ["the language picked on the page first", { explicit: "ar", saved: "jp", shop: "de", acceptLanguage: "fr" }, "ar"],
    ["then their saved choice", { explicit: null, saved: "jp", shop: "de", acceptLanguage: "fr" }, "jp"],
    ["then the shop's", { saved: null, shop: "de", acceptLanguage: "fr" }, "de"],
    ["then the browser's", { shop: null, acceptLanguage: "fr-CA,fr;q=0.9,en;q=0.5" }, "fr"],
    ["then English", { acceptLanguage: "tlh" }, "en"],
    ["skipping a value that is no portal language", { explicit: "bo", saved: "xx", shop: "de" }, "de"],
    ["any account-coverage language", { saved: "sw" }, "sw"],
  ])("%s", (_name, input, want) => {
    expect(chooseAffiliateLanguage(input).code).toBe(want);
  });
});

describe("Accept-Language", () => {
  it.each([
    ["ja-JP,ja;q=0.9,en;q=0.8", "jp"],
    ["pt-BR", "prt"],
    ["pt", "prt"],
    ["zh-HK", "zh-TW"],
    ["zh", "zh"],
    ["de-CH", "de"],
    ["he-IL,he;q=0.9", "he"],
    ["nn", "nb"],
    ["xx, fr;q=0.5", "fr"],
    ["*", undefined],
    ["", undefined],
    ["bogus;;q=x,,", undefined],
  ])("%s matches %s", (header, want) => {
    expect(matchAcceptLanguage(header)?.code).toBe(want);
  });
});
