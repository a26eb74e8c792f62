import { describe, expect, it } from "vitest";
import { SETUP_STEPS, setupGuide, type SetupStep } from "./setup-guide";

const state = (done: SetupStep[]) =>
  Object.fromEntries(SETUP_STEPS.map((s) => [s, done.includes(s)])) as Record<SetupStep, boolean>;

describe("setupGuide", () => {
  it.each([
    ["a new shop", [], 0, false],
    ["a campaign and a payout method", ["campaign", "payoutMethod"], 2, false],
    ["steps done out of order still count", ["firstSale"], 1, false],
    ["everything", [...SETUP_STEPS], 6, true],
  ] as const)("%s", (_name, done, count, complete) => {
    const guide = setupGuide(state([...done]));
    expect(guide).toMatchObject({ done: count, total: 6, complete });
    expect(guide.steps.map((s) => s.key)).toEqual([...SETUP_STEPS]);
    expect(guide.steps.filter((s) => s.done).map((s) => s.key)).toEqual(
      SETUP_STEPS.filter((s) => (done as readonly SetupStep[]).includes(s)),
    );
  });

  it("links each step to its screen", () => {
    expect(setupGuide(state([])).steps.map((s) => s.screen)).toEqual([
      "themeEditor",
      "campaigns",
      "portals",
      "settings/payment",
      "affiliates",
      "sales",
    ]);
  });
});
