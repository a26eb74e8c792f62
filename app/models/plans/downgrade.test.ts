import { describe, expect, it } from "vitest";
import { downgradeConsequences, type ShopUsage } from "./downgrade";

const usage = (u: Partial<ShopUsage> = {}): ShopUsage => ({ campaigns: 2, affiliates: 10, mlmCampaigns: 0, ...u });

describe("downgradeConsequences", () => {
  it.each([
    ["an upgrade takes nothing away", "free", "pro", usage({ campaigns: 40, affiliates: 900 }), []],
    ["the same plan takes nothing away", "growth", "growth", usage(), []],
    [
      "pro → growth: campaigns over 10 become read-only, the pro features stop",
      "pro",
      "growth",
      usage({ campaigns: 12 }),
      [
        { key: "campaignsReadOnly", values: { count: 2, max: 10 } },
        { key: "customDomain", values: {} },
        { key: "integrations", values: {} },
      ],
    ],
    [
      "growth → free: both limits and every growth feature, MLM with the campaigns that pay levels",
      "growth",
      "free",
      usage({ campaigns: 5, affiliates: 51, mlmCampaigns: 2 }),
      [
        { key: "campaignsReadOnly", values: { count: 2, max: 3 } },
        { key: "affiliatesReadOnly", values: { count: 1, max: 50 } },
        { key: "mlm", values: { count: 2 } },
        { key: "paypalPayouts", values: {} },
        { key: "autoTier", values: {} },
        { key: "referAFriend", values: {} },
      ],
    ],
    [
      "at the limit exactly nothing becomes read-only",
      "growth",
      "free",
      usage({ campaigns: 3, affiliates: 50 }),
      [
        { key: "mlmOff", values: {} },
        { key: "paypalPayouts", values: {} },
        { key: "autoTier", values: {} },
        { key: "referAFriend", values: {} },
      ],
    ],
    [
      "no recorded plan counts as free",
      null,
      "free",
      usage({ campaigns: 9 }),
      [{ key: "campaignsReadOnly", values: { count: 6, max: 3 } }],
    ],
  ])("%s", (_name, from, to, shop, expected) => {
    expect(downgradeConsequences(from, to, shop)).toEqual(expected);
  });
});
