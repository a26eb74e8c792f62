import type { ShopDb } from "../../db/shop-db.server";
import { showsCodes, type PromoteLink } from "../settings/promote-link";

// What an affiliate's account says about the discount their short link
// applies (Settings > Promote link, "apply the affiliate's discount"): the
// same code the /r/ redirect picks (app/db/click-store.server.ts: the
// affiliate's first code Shopify has created), and whether the merchant still
// shows codes to affiliates.

export interface LinkDiscount {
  /** The code the link applies; null when links do not apply one or Shopify has none yet. */
  code: string | null;
  /** Whether the affiliate may see their codes. */
  showCodes: boolean;
}

export async function linkDiscount(db: ShopDb, affiliateId: string, promote: PromoteLink): Promise<LinkDiscount> {
  const showCodes = showsCodes(promote);
  if (!promote.auto_apply_discount) return { code: null, showCodes };
  const coupon = await db.coupon.findFirst({
    where: { shopId: db.$shopId, affiliateId, shopifyStatus: "created" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { code: true },
  });
  return { code: coupon?.code ?? null, showCodes };
}
