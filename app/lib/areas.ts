// Areas of the merchant admin. A staff user's permissions are a list of area
// names; admins may use every area. Some areas are admin-only whatever a
// staff user's permissions say (billing, payout-provider connection).

export const ROLES = ["admin", "staff"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string | undefined): value is Role {
  return value === "admin" || value === "staff";
}

export const STAFF_AREAS = [
  "campaigns",
  "affiliates",
  "sales",
  "payouts",
  "portals",
  "bonuses",
  "creatives",
  "mails",
  "settings",
  "referrals",
] as const;
export type StaffArea = (typeof STAFF_AREAS)[number];

// "staff": managing staff accounts; staff may never manage staff.
export const ADMIN_ONLY_AREAS = ["plans", "paypal", "staff"] as const;
export type AdminOnlyArea = (typeof ADMIN_ONLY_AREAS)[number];

// Open to everyone who can log in to the admin.
export const OPEN_AREAS = ["dashboard", "contact-us", "not-found"] as const;
export type OpenArea = (typeof OPEN_AREAS)[number];

export type Area = StaffArea | AdminOnlyArea | OpenArea;

export function isStaffArea(value: string): value is StaffArea {
  return (STAFF_AREAS as readonly string[]).includes(value);
}

export function canUseArea(role: Role, permissions: readonly string[], area: Area): boolean {
  if (role === "admin") return true;
  if ((OPEN_AREAS as readonly string[]).includes(area)) return true;
  if ((ADMIN_ONLY_AREAS as readonly string[]).includes(area)) return false;
  return permissions.includes(area);
}

/** Parses the stored JSON permission list, keeping only known areas. */
export function parsePermissions(raw: string | null | undefined): StaffArea[] {
  try {
    const value: unknown = JSON.parse(raw ?? "[]");
    return Array.isArray(value) ? value.filter((v): v is StaffArea => typeof v === "string" && isStaffArea(v)) : [];
  } catch {
    return [];
  }
}
