import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { getDb } from "~/db.server";
import { appProxySignature } from "~/models/shopify/app-proxy-signature";
import { DEFAULT_REFERRAL_PROGRAM, type ReferralProgram } from "~/models/referrals/program-settings";
import { withShopSetting } from "~/models/settings/shop-settings";
import { buildShop } from "./builders";
import type { TestStore } from "./store-simulator";

// Refer-a-friend test helpers shared by the db and browser tests: a shop
// with the program on (and, with a store simulator, the app's offline
// session on it), and app proxy URLs signed the way Shopify signs them.

type ProgramPatch = Partial<Omit<ReferralProgram, "friendReward" | "widget">> & {
  friendReward?: Partial<ReferralProgram["friendReward"]>;
  widget?: Partial<ReferralProgram["widget"]>;
};

export function referralProgram(patch: ProgramPatch = {}): ReferralProgram {
  const d = DEFAULT_REFERRAL_PROGRAM;
  return {
    ...d,
    enabled: true,
    ...patch,
    friendReward: { ...d.friendReward, ...patch.friendReward },
    widget: { ...d.widget, ...patch.widget },
  } as ReferralProgram;
}

export async function setReferralProgram(shopId: string, patch: ProgramPatch = {}) {
  const shop = await getDb().shop.findUniqueOrThrow({ where: { id: shopId }, select: { settings: true } });
  return getDb().shop.update({
    where: { id: shopId },
    data: { settings: withShopSetting(shop.settings, "referrals", referralProgram(patch)) },
  });
}

/** A shop on a plan with refer-a-friend, the program on, and (given a store) the app's session on it. */
export async function buildReferralShop(
  options: { domain?: string; url?: string; program?: ProgramPatch; store?: TestStore; pricingPlan?: string } = {},
) {
  const shop = await buildShop({ domain: options.domain, pricingPlan: options.pricingPlan ?? "growth" });
  if (options.url !== undefined) await getDb().shop.update({ where: { id: shop.id }, data: { url: options.url } });
  if (options.store)
    await getDb().session.create({
      data: {
        id: `offline_${shop.domain}`,
        shop: shop.domain,
        state: "",
        accessToken: options.store.accessToken(shop.domain),
        scope: "write_discounts,read_discounts",
      },
    });
  return setReferralProgram(shop.id, options.program);
}

/**
 * The app's URL for https://{shop}/apps/affiliate/{path}: what Shopify's
 * proxy calls, with `shop`, `logged_in_customer_id`, `path_prefix`,
 * `timestamp` and the signature over them and the visitor's query.
 */
export function signedProxyUrl(
  appBase: string,
  shopDomain: string,
  path: string,
  query: Record<string, string> = {},
  options: { customerId?: string; secret?: string } = {},
): string {
  const url = new URL(`${appBase.replace(/\/$/, "")}/proxy/${path.replace(/^\//, "")}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  url.searchParams.set("shop", shopDomain);
  url.searchParams.set("logged_in_customer_id", options.customerId ?? "");
  url.searchParams.set("path_prefix", "/apps/affiliate");
  url.searchParams.set("timestamp", String(Math.floor(Date.now() / 1000)));
  url.searchParams.set("signature", appProxySignature(url.searchParams, options.secret ?? API_SECRET_KEY));
  return url.toString();
}
