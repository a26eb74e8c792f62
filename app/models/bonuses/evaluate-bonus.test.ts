import { describe, expect, it } from "vitest";
import { evaluateBonus, progressOf, stackAwards, type BonusRuleTerms } from "./evaluate-bonus";
import { explanationIn } from "../../../tests/support/attribution-reasons";

const period = { key: "monthly:2026-03-01", firstDay: "2026-03-01", lastDay: "2026-03-31" };
const money = { currency: "USD" };
const rule = (over: Partial<BonusRuleTerms>): BonusRuleTerms => ({
  id: "r1",
  name: "Spring",
  kind: "recurring",
  metric: "sales",
  threshold: 10,
  rewardType: "fixed",
  rewardValue: 5_000,
  ...over,
});

describe("evaluateBonus", () => {
  it.each([
    ["below the threshold", rule({}), { sales: 9, revenue: 90_000, commission: 9_000 }, null],
    ["at the threshold, fixed", rule({}), { sales: 10, revenue: 100_000, commission: 10_000 }, 5_000],
    [
      "percent of the period's revenue",
      rule({ rewardType: "percent", rewardValue: 250 }),
      { sales: 12, revenue: 123_457, commission: 0 },
      3_086,
    ],
    [
      "revenue threshold",
      rule({ metric: "revenue", threshold: 100_000 }),
      { sales: 1, revenue: 100_000, commission: 0 },
      5_000,
    ],
    [
      "commission threshold missed",
      rule({ metric: "commission", threshold: 20_000 }),
      { sales: 30, revenue: 300_000, commission: 19_999 },
      null,
    ],
    ["a zero threshold still needs activity", rule({ threshold: 0 }), { sales: 0, revenue: 0, commission: 0 }, null],
    [
      "refunds can make revenue negative: no percent bonus",
      rule({ rewardType: "percent", rewardValue: 1_000, threshold: 1 }),
      { sales: 2, revenue: -500, commission: 0 },
      null,
    ],
    ["target, fixed", rule({ kind: "target" }), { sales: 11, revenue: 1, commission: 0 }, 5_000],
    [
      "booster on revenue above the threshold",
      rule({ kind: "booster", metric: "revenue", threshold: 100_000, rewardType: "percent", rewardValue: 500 }),
      { sales: 40, revenue: 150_000, commission: 0 },
      2_500,
    ],
    [
      "booster on a sales count boosts all revenue",
      rule({ kind: "booster", metric: "sales", threshold: 5, rewardType: "percent", rewardValue: 100 }),
      { sales: 5, revenue: 80_000, commission: 0 },
      800,
    ],
    [
      "booster exactly at the threshold earns nothing",
      rule({ kind: "booster", metric: "revenue", threshold: 100_000, rewardType: "percent", rewardValue: 500 }),
      { sales: 9, revenue: 100_000, commission: 0 },
      null,
    ],
  ] as const)("%s", (_name, r, figures, amount) => {
    const award = evaluateBonus(r, "aff1", figures, period, money);
    expect(award?.amount ?? null).toBe(amount);
    if (award) expect(explanationIn("en", award.explanation)).toContain("from Mar 1, 2026 to Mar 31, 2026");
  });

  it("keys period bonuses by rule and boosters by affiliate and period", () => {
    const figures = { sales: 20, revenue: 200_000, commission: 0 };
    expect(evaluateBonus(rule({}), "a", figures, period, money)?.key).toBe("r1:a:monthly:2026-03-01");
    const booster = rule({ kind: "booster", metric: "revenue", threshold: 0, rewardType: "percent", rewardValue: 100 });
    expect(evaluateBonus(booster, "a", figures, period, money)?.key).toBe("booster:a:monthly:2026-03-01");
  });

  it.each([
    [
      "a period bonus",
      rule({}),
      { sales: 12, revenue: 0, commission: 0 },
      "Period bonus “Spring”: 12 sales from Mar 1, 2026 to Mar 31, 2026 (threshold 10 sales); fixed $50.00.",
      "Periodenbonus „Spring“: 12 Verkäufe vom 01.03.2026 bis 31.03.2026 (Schwelle 10 Verkäufe); fest 50,00 $.",
    ],
    [
      "a target bonus on revenue, paid as a percentage",
      rule({ kind: "target", metric: "revenue", threshold: 100_000, rewardType: "percent", rewardValue: 250 }),
      { sales: 3, revenue: 123_400, commission: 0 },
      "Target bonus “Spring”: $1,234.00 revenue from Mar 1, 2026 to Mar 31, 2026 (threshold $1,000.00 revenue); 2.5% of $1,234.00 revenue.",
      "Zielbonus „Spring“: 1.234,00 $ Umsatz vom 01.03.2026 bis 31.03.2026 (Schwelle 1.000,00 $ Umsatz); 2,5 % von 1.234,00 $ Umsatz.",
    ],
    [
      "a booster above a revenue threshold",
      rule({ kind: "booster", metric: "revenue", threshold: 100_000, rewardType: "percent", rewardValue: 500 }),
      { sales: 1, revenue: 150_000, commission: 0 },
      "Commission booster “Spring”: $1,500.00 revenue from Mar 1, 2026 to Mar 31, 2026 (threshold $1,000.00 revenue); 5% extra on $500.00 above the threshold.",
      "Provisions-Booster „Spring“: 1.500,00 $ Umsatz vom 01.03.2026 bis 31.03.2026 (Schwelle 1.000,00 $ Umsatz); 5 % zusätzlich auf 500,00 $ über der Schwelle.",
    ],
  ] as const)("explains %s in the reader's language", (_name, r, figures, english, german) => {
    const award = evaluateBonus(r, "a", figures, period, money);
    expect(explanationIn("en", award!.explanation)).toBe(english);
    expect(explanationIn("de", award!.explanation)).toBe(german);
  });
});

describe("stackAwards", () => {
  const award = (ruleId: string, key: string, amount: number) => ({
    ruleId,
    affiliateId: "a",
    amount,
    metricValue: 0,
    key,
    explanation: "",
  });
  it.each([
    ["bonuses of different rules add up", [award("r1", "r1:a:p", 100), award("r2", "r2:a:p", 200)], ["r1", "r2"]],
    ["of two boosters the larger pays", [award("b1", "booster:a:p", 100), award("b2", "booster:a:p", 300)], ["b2"]],
    ["a tie goes to the first", [award("b1", "booster:a:p", 300), award("b2", "booster:a:p", 300)], ["b1"]],
    ["a booster stacks with a period bonus", [award("b1", "booster:a:p", 10), award("r1", "r1:a:p", 10)], ["b1", "r1"]],
  ])("%s", (_name, awards, winners) => {
    expect(stackAwards(awards).map((a) => a.ruleId)).toEqual(winners);
  });
});

describe("progressOf", () => {
  it.each([
    [{ metric: "sales", threshold: 10 }, 4, 0.4, false],
    [{ metric: "sales", threshold: 10 }, 15, 1, true],
    [{ metric: "sales", threshold: 0 }, 0, 0, false],
  ] as const)("%o with %d sales", (r, sales, ratio, reached) => {
    expect(progressOf(r, { sales, revenue: 0, commission: 0 })).toMatchObject({ ratio, reached });
  });
});
