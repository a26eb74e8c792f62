import type { Area, Role } from "./areas";
import { canUseArea } from "./areas";

// The twelve items of the admin navigation menu, in the spec's order.
export interface MenuItem {
  key: string; // TopMenu translation key
  path: string; // below /{role}/
  area: Area;
}

export const MENU_ITEMS: readonly MenuItem[] = [
  { key: "campaigns", path: "campaigns", area: "campaigns" },
  { key: "affiliates", path: "affiliates", area: "affiliates" },
  { key: "sales", path: "sales", area: "sales" },
  { key: "payouts", path: "payouts", area: "payouts" },
  { key: "portals", path: "portals", area: "portals" },
  { key: "bonuses", path: "bonuses", area: "bonuses" },
  { key: "creatives", path: "creatives", area: "creatives" },
  { key: "notifications", path: "mails", area: "mails" },
  { key: "settings", path: "settings", area: "settings" },
  { key: "referrals", path: "referrals", area: "referrals" },
  { key: "pricing", path: "plans", area: "plans" },
  { key: "contactUs", path: "contact-us", area: "contact-us" },
];

export function menuFor(role: Role, permissions: readonly string[]): MenuItem[] {
  return MENU_ITEMS.filter((item) => canUseArea(role, permissions, item.area));
}

export interface MenuVisibilityInput {
  pathname: string;
  role: Role;
  hasPricing: boolean;
  needSelectPlan: boolean | null | undefined;
}

/**
 * The menu is hidden on portal pages (but not the portals list), on
 * not-found, when the shop has no pricing info, and while a plan must still
 * be selected.
 */
export function isMenuHidden({ pathname, role, hasPricing, needSelectPlan }: MenuVisibilityInput): boolean {
  const below = pathname.replace(new RegExp(`^/${role}/?`), "").replace(/\/$/, "");
  if (/^portals\/[^/]+/.test(below)) return true;
  if (below === "not-found") return true;
  if (!hasPricing) return true;
  if (needSelectPlan !== null && needSelectPlan !== undefined) return true;
  return false;
}
