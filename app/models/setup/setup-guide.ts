// The dashboard's setup guide (pure): the steps a new shop goes through, in
// order, each ticked from the shop's own data (setup-guide.server.ts reads
// it), with the screen that does it.

export const SETUP_STEPS = [
  "appEmbed",
  "campaign",
  "portal",
  "payoutMethod",
  "affiliateApproved",
  "firstSale",
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** The screen of each step, under /{role}/ ("themeEditor": Shopify's theme editor, opened outside the app). */
export const SETUP_SCREENS: Record<SetupStep, string> = {
  appEmbed: "themeEditor",
  campaign: "campaigns",
  portal: "portals",
  payoutMethod: "settings/payment",
  affiliateApproved: "affiliates",
  firstSale: "sales",
};

export interface SetupGuide {
  steps: { key: SetupStep; done: boolean; screen: string }[];
  done: number;
  total: number;
  complete: boolean;
}

export function setupGuide(state: Record<SetupStep, boolean>): SetupGuide {
  const steps = SETUP_STEPS.map((key) => ({ key, done: state[key], screen: SETUP_SCREENS[key] }));
  const done = steps.filter((s) => s.done).length;
  return { steps, done, total: steps.length, complete: done === steps.length };
}
