import { canUseArea, type Area, type Role } from "./areas";

// What the dashboard offers a user: its links and promos lead into areas of
// the admin, and a staff member sees only those they may open (the same rule
// as the menu: lib/areas.ts).

export type AreaCheck = (area: Area) => boolean;

export function areaCheck(user: { role: Role; permissions: readonly string[] }): AreaCheck {
  return (area) => canUseArea(user.role, user.permissions, area);
}

/** The "waiting for approval" counts, each null where its list is closed to the user. */
export interface VisiblePending {
  sales: number | null;
  affiliates: number | null;
  commissions: number | null;
  commissionsMore: boolean;
}

export function visiblePending(
  pending: { sales: number; affiliates: number; commissions: number; commissionsMore: boolean },
  can: AreaCheck,
): VisiblePending {
  const payouts = can("payouts");
  return {
    sales: can("sales") ? pending.sales : null,
    affiliates: can("affiliates") ? pending.affiliates : null,
    commissions: payouts ? pending.commissions : null,
    commissionsMore: payouts && pending.commissionsMore,
  };
}

// The feature overview, each with the screen where it is set up. The custom
// domain is entered under Settings > Marketings.
export const FEATURES = [
  { key: "portalPages", path: "portals", area: "portals" },
  { key: "mlm", path: "campaigns", area: "campaigns" },
  { key: "creatives", path: "creatives", area: "creatives" },
  { key: "customDomain", path: "settings/marketings", area: "settings" },
  { key: "payouts", path: "paypal/connect", area: "paypal" },
  { key: "referralsReward", path: "referrals", area: "referrals" },
] as const satisfies readonly { key: string; path: string; area: Area }[];

export const HELPFUL_LINKS = [
  "campaigns",
  "affiliates",
  "portals",
  "creatives",
  "settings",
] as const satisfies readonly Area[];

/** The welcome banner asks for a first campaign: only while there is none, and only of someone who may create one. */
export function showWelcome(hasCampaigns: boolean, can: AreaCheck): boolean {
  return !hasCampaigns && can("campaigns");
}
