import type { ShopDb } from "../../db/shop-db.server";
import { portalDomainState } from "../portal/portal-domain.server";

/** Settings > Marketings: each campaign's coupon template and the portal's custom domain. */
export async function marketingsSettings(db: ShopDb) {
  const campaigns = await db.campaign.findMany({
    where: { status: { not: "archived" } },
    orderBy: [{ isDefault: "desc" }, { name: "asc" }],
    take: 200,
    select: {
      id: true,
      name: true,
      couponEnabled: true,
      couponDiscountType: true,
      couponDiscountValue: true,
      couponPrefix: true,
    },
  });
  return { campaigns, domain: await portalDomainState(db.$shopId) };
}
