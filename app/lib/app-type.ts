// The global app type (spec section 3, "appType: affiliate or referral"):
// the refer-a-friend settings and history screens switch it to "referral",
// every other route (a single referral's page included, as the spec lists
// only those two) is "affiliate". The layout marks its frame with it.

export type AppType = "affiliate" | "referral";

const REFERRAL_SCREENS = new Set(["referrals", "referrals/history"]);

export function appTypeFor(pathname: string): AppType {
  const below = pathname.replace(/^\/(admin|staff)(\/|$)/, "").replace(/\/+$/, "");
  return REFERRAL_SCREENS.has(below) ? "referral" : "affiliate";
}
