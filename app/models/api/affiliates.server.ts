import { getConfig } from "../../config.server";
import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import {
  affiliateInclude as include,
  insertAffiliate,
  mapUniqueViolation,
  patchAffiliate,
} from "../affiliates/affiliate-writes.server";
import { afterCursor, pageOrder, toPage } from "../pagination/cursor.server";
import type { AffiliateCreate, AffiliateListQuery, AffiliateUpdate } from "./schemas";
import { serializeAffiliate, type LinkContext } from "./serializers";

// Affiliates of the API key's shop, for /api/v1. The checks (unique e-mail,
// referral code and coupons, campaign and upline of the shop, no upline
// cycle) live in affiliates/affiliate-writes.server.ts, shared with the admin.

export interface ShopRef {
  domain: string;
  referralParam: string;
}

function links(shop: ShopRef): LinkContext {
  return { appUrl: getConfig().appUrl, shopDomain: shop.domain, referralParam: shop.referralParam };
}

export async function listAffiliates(db: ShopDb, shop: ShopRef, query: AffiliateListQuery) {
  const rows = await db.affiliate.findMany({
    where: {
      ...(query.status ? { status: query.status } : {}),
      ...(query.campaign_id ? { campaignId: query.campaign_id } : {}),
      ...(query.tag ? { tags: { some: { shopId: db.$shopId, tag: query.tag } } } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: pageOrder,
    take: query.limit + 1,
    include,
  });
  const context = links(shop);
  return toPage(rows, query.limit, (row) => serializeAffiliate(row, context));
}

export async function getAffiliate(db: ShopDb, shop: ShopRef, id: string) {
  const row = await db.affiliate.findFirst({ where: { id }, include });
  if (!row) throw new AppError("not_found", "No affiliate with this id.");
  return serializeAffiliate(row, links(shop));
}

export async function createAffiliate(db: ShopDb, shop: ShopRef, input: AffiliateCreate) {
  const row = await db.$transaction((tx) => insertAffiliate(tx, db.$shopId, input)).catch(mapUniqueViolation);
  return serializeAffiliate(row, links(shop));
}

export async function updateAffiliate(db: ShopDb, shop: ShopRef, id: string, input: AffiliateUpdate) {
  const row = await db.$transaction((tx) => patchAffiliate(tx, db.$shopId, id, input)).catch(mapUniqueViolation);
  return serializeAffiliate(row, links(shop));
}
