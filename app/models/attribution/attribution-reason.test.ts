import { describe, expect, it } from "vitest";
import { fallbackIn, reasonIn } from "../../../tests/support/attribution-reasons";
import { ATTRIBUTION_REASON_KEYS as K, storedAttributionReason, type AttributionReason } from "./attribution-reason";

const anna = "Anna (ANNA)";

describe("attribution reasons in the reader's language", () => {
  it.each<[string, AttributionReason, string, string]>([
    [
      "coupon",
      { key: K.coupon, values: { who: anna, code: "ANNA10" } },
      "Credited to Anna (ANNA): their coupon ANNA10 was used at checkout.",
      "Gutgeschrieben an Anna (ANNA): Der Gutschein ANNA10 wurde an der Kasse verwendet.",
    ],
    [
      "a click one day before, last of 2 (plurals)",
      { key: K.linkClick, values: { who: anna, days: 1, cookieDays: 30, clicks: 2, model: "last" } },
      "Credited to Anna (ANNA): referral link click 1 day before the order (last of 2 clicks), within the 30-day cookie window.",
      "Gutgeschrieben an Anna (ANNA): Klick auf den Empfehlungslink 1 Tag vor der Bestellung (letzter von 2 Klicks), innerhalb des Cookie-Zeitraums von 30 Tagen.",
    ],
    [
      "a click the same day",
      { key: K.linkClick, values: { who: anna, days: 0, cookieDays: 1000 } },
      "Credited to Anna (ANNA): referral link click the same day, within the 1,000-day cookie window.",
      "Gutgeschrieben an Anna (ANNA): Klick auf den Empfehlungslink am selben Tag, innerhalb des Cookie-Zeitraums von 1.000 Tagen.",
    ],
    [
      "nothing applies",
      { key: K.nothing, values: {} },
      "Not credited: no affiliate coupon, referral link, pixel report or lifetime customer link applies.",
      "Nicht gutgeschrieben: Kein Affiliate-Gutschein, Empfehlungslink, Pixel-Bericht und keine lebenslange Kundenbindung trifft zu.",
    ],
    [
      "refused candidates, each note worded",
      {
        key: K.refused,
        values: {
          notes: [
            { k: "notApproved", signal: "coupon", code: "X", who: anna, status: "pending" },
            { k: "selfEmail", signal: "link", who: "Bo (BO)", email: "bo@example.com" },
            { k: "clickOutside", who: "Cy (CY)", days: 8, cookieDays: 7 },
            { k: "pixelOutside", who: "Di (DI)" },
          ],
        },
      },
      "Not credited. coupon X points to Anna (ANNA), who is pending, not approved. Self-referral refused: the referral link points to Bo (BO), but the buyer's e-mail bo@example.com is the affiliate's own. A referral click for Cy (CY) 8 days before the order is outside the 7-day cookie window. The Web Pixel reported a click for Di (DI) outside the cookie window.",
      "Nicht gutgeschrieben. Der Gutschein X verweist auf Anna (ANNA), aber der Status ist „ausstehend“, nicht freigegeben. Selbstempfehlung abgelehnt: Der Empfehlungslink verweist auf Bo (BO), aber die E-Mail-Adresse bo@example.com der Käuferin oder des Käufers gehört dem Affiliate selbst. Ein Empfehlungsklick für Cy (CY) 8 Tage vor der Bestellung liegt außerhalb des Cookie-Zeitraums von 7 Tagen. Das Web-Pixel meldete einen Klick für Di (DI) außerhalb des Cookie-Zeitraums.",
    ],
  ])("%s", (_name, reason, english, german) => {
    expect(reasonIn("en", reason)).toBe(english);
    expect(reasonIn("de", reason)).toBe(german);
    // What is stored (a key and JSON values) reads back the same.
    const row = storedAttributionReason(reason);
    expect(reasonIn("de", { reasonKey: row.attributionReasonKey, reasonValues: row.attributionReasonValues })).toBe(
      german,
    );
  });

  it("writes Japanese without English left in it", () => {
    const text = reasonIn("ja", { key: K.linkClick, values: { who: anna, days: 3, cookieDays: 30 } });
    expect(text).toBe("Anna (ANNA)に計上：注文の3日前に紹介リンクがクリックされました。30日間のCookie期間内です。");
  });

  it.each<[string, { reason?: string; reasonKey?: string; reasonValues?: string }, string]>([
    [
      "an older row's English text is shown as it is",
      { reason: "Last click within 30 days" },
      "Last click within 30 days",
    ],
    [
      "an unknown key falls back to the row's text",
      { reason: "old", reasonKey: "Sales:nope", reasonValues: "{}" },
      "old",
    ],
    ["unreadable values fall back to the row's text", { reason: "old", reasonKey: K.coupon, reasonValues: "{" }, "old"],
    ["a row with nothing says nothing (the page words the source)", {}, ""],
  ])("%s", (_name, stored, expected) => {
    expect(reasonIn("de", stored)).toBe(expected);
  });

  it.each([
    [
      "none",
      null,
      "Not credited to any affiliate: the order carried no affiliate coupon, referral link click or lifetime customer link.",
    ],
    ["coupon", "Anna Test", "Credited to Anna Test: their coupon code was used at checkout."],
    ["link", "Anna Test", "Credited to Anna Test: the customer clicked their referral link within the cookie window."],
    ["pixel", "Anna Test", "Credited to Anna Test: the store's checkout pixel reported their referral."],
    ["lifetime", "Anna Test", "Credited to Anna Test: the customer is linked to them for life by an earlier referral."],
    ["manual", "Anna Test", "Credited to Anna Test: they referred the customer."],
  ])("words source %s from the order alone when it stored no reason", (source, name, english) => {
    expect(fallbackIn("en", source, name)).toBe(english);
    expect(fallbackIn("de", source, name)).not.toBe(english);
  });
});
