import { describe, expect, it } from "vitest";
import { cheapestPlanWith, overLimit, planAllows, planOf, PLANS, priceOf } from "./plans";

describe("plan catalogue", () => {
  it.each([
    ["free", "integrations", false],
    ["growth", "referAFriend", true],
    ["growth", "customDomain", false],
    ["pro", "customDomain", true],
    [null, "mlm", false],
    ["gone", "mlm", false],
  ] as const)("%s allows %s: %s", (plan, feature, allowed) => {
    expect(planAllows(plan, feature)).toBe(allowed);
  });

  it("prices are flat, yearly cheaper than twelve months, paid plans have a trial", () => {
    for (const plan of PLANS) {
      expect(priceOf(plan, "yearly")).toBeLessThanOrEqual(priceOf(plan, "monthly") * 12);
      if (plan.monthlyPrice > 0) expect(plan.trialDays).toBeGreaterThan(0);
    }
  });

  it("finds the cheapest plan with a feature", () => {
    expect(cheapestPlanWith("referAFriend")?.id).toBe("growth");
    expect(cheapestPlanWith("integrations")?.id).toBe("pro");
  });

  it.each([
    ["free", 49, false, false],
    ["free", 50, false, true],
    ["free", 51, true, true],
    ["pro", 100000, false, false],
  ] as const)("%s with %i affiliates: over=%s full=%s", (plan, count, over, full) => {
    expect(overLimit(plan, "affiliates", count)).toMatchObject({ over, full });
  });

  it("an unknown plan id is the free plan", () => {
    expect(planOf("nope").id).toBe("free");
  });
});
