import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createInstance } from "i18next";
import { decideTier, ladderProblem, tierReasonText, type Tier } from "./evaluate-tiers";

const ladder: Tier[] = [
  { position: 1, campaignId: "bronze", campaignName: "Bronze", metric: "sales", threshold: 0, windowDays: 0 },
  { position: 2, campaignId: "silver", campaignName: "Silver", metric: "sales", threshold: 10, windowDays: 0 },
  { position: 3, campaignId: "gold", campaignName: "Gold", metric: "revenue", threshold: 500_000, windowDays: 90 },
];
const currency = "USD";
// The English texts as shipped, so the test reads what a merchant reads.
const en = JSON.parse(readFileSync(new URL("../../../public/locales/en/Settings.json", import.meta.url), "utf8"));
const i18n = createInstance();
void i18n.init({ lng: "en", resources: { en: { Settings: en } }, initImmediate: false });
const usd = (minor: number, cur: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: cur }).format(minor / 100);
const text = (move: Parameters<typeof tierReasonText>[1]) => tierReasonText(i18n.t as never, move, usd);

describe("decideTier", () => {
  it.each([
    ["stays in the entry tier below every threshold", "bronze", { 2: 3, 3: 0 }, false, null],
    ["moves up one tier", "bronze", { 2: 10, 3: 0 }, false, ["silver", "up"]],
    ["jumps straight to the highest tier reached", "bronze", { 2: 12, 3: 600_000 }, false, ["gold", "up"]],
    [
      "a higher tier counts even if a lower one's threshold is missed",
      "bronze",
      { 2: 2, 3: 500_000 },
      false,
      ["gold", "up"],
    ],
    ["stays put when already there", "gold", { 2: 50, 3: 700_000 }, true, null],
    ["is not moved down without demotion", "gold", { 2: 50, 3: 1 }, false, null],
    ["moves down to the highest tier still reached", "gold", { 2: 50, 3: 1 }, true, ["silver", "down"]],
    ["moves down to the entry tier", "silver", { 2: 1, 3: 0 }, true, ["bronze", "down"]],
    ["leaves an affiliate off the ladder alone", "private-deal", { 2: 99, 3: 9_999_999 }, true, null],
  ] as const)("%s", (_name, campaignId, values, allowDemotion, expected) => {
    const move = decideTier(ladder, { affiliateId: "a", campaignId, values }, { allowDemotion, currency });
    expect(move ? [move.toCampaignId, move.direction] : null).toEqual(expected);
  });

  it("states the reason as a key and values, rendered in words", () => {
    const up = decideTier(
      ladder,
      { affiliateId: "a", campaignId: "silver", values: { 2: 11, 3: 512_345 } },
      { allowDemotion: false, currency },
    );
    expect(up?.reasonKey).toBe("Settings:autotier.reasons.up");
    expect(up?.reasonValues).toEqual({
      metric: "revenue",
      windowDays: 90,
      value: 512_345,
      threshold: 500_000,
      tier: 3,
      campaign: "Gold",
      currency: "USD",
    });
    expect(text(up!)).toBe(
      "Revenue in the last 90 days: $5,123.45, reaching the threshold $5,000.00 of tier 3 (Gold).",
    );
    const down = decideTier(
      ladder,
      { affiliateId: "a", campaignId: "silver", values: { 2: 4, 3: 0 } },
      { allowDemotion: true, currency },
    );
    expect(text(down!)).toBe(
      "Sales over the affiliate's lifetime: 4, below the threshold 10 of tier 2 (Silver); moves to tier 1 (Bronze).",
    );
  });

  it("orders tiers by position whatever order they come in", () => {
    const move = decideTier(
      [...ladder].reverse(),
      { affiliateId: "a", campaignId: "bronze", values: { 2: 10 } },
      { allowDemotion: false, currency },
    );
    expect(move?.toCampaignId).toBe("silver");
  });
});

describe("tierReasonText", () => {
  it.each([
    ["a move recorded before keys keeps its English text", { reason: "Sales: 3", reasonKey: "" }, "Sales: 3"],
    [
      "a one-day window",
      {
        reasonKey: "Settings:autotier.reasons.up",
        reasonValues: JSON.stringify({
          metric: "sales",
          windowDays: 1,
          value: 2,
          threshold: 2,
          tier: 2,
          campaign: "Silver",
          currency,
        }),
      },
      "Sales in the last 1 day: 2, reaching the threshold 2 of tier 2 (Silver).",
    ],
    ["unreadable values fall back to the stored text", { reason: "", reasonKey: "x", reasonValues: "{" }, ""],
  ])("%s", (_name, move, expected) => expect(text(move)).toBe(expected));
});

describe("ladderProblem", () => {
  it.each([
    [[{ campaignId: "a" }, { campaignId: "b" }], null],
    [[{ campaignId: "a" }, { campaignId: "a" }], "Settings:autotier.errors.duplicateCampaign"],
  ])("%o", (tiers, problem) => expect(ladderProblem(tiers)).toBe(problem));
});
