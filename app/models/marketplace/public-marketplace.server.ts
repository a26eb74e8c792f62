import { getDb, type Db } from "../../db.server";
import { containsText } from "../../db/text-search.server";
import type { MarketplaceQuery } from "./listing-form";

export const MARKETPLACE_PAGE_SIZE = 20;

export interface MarketplaceCard {
  handle: string;
  shopName: string;
  title: string;
  description: string;
  commissionSummary: string;
  category: string;
  logoUrl: string;
}

/**
 * The opted-in programs of this installation, a page at a time, newest offer
 * first. Only installed shops with an active campaign are shown: a listing
 * whose sign-up would refuse the applicant is not an offer.
 */
export async function publicMarketplace(query: MarketplaceQuery, db: Db = getDb()) {
  const search = query.q
    ? {
        OR: [
          { title: containsText(query.q) },
          { description: containsText(query.q) },
          { shop: { name: containsText(query.q) } },
        ],
      }
    : {};
  const where = {
    listed: true,
    ...(query.category ? { category: query.category } : {}),
    shop: { uninstalledAt: null, campaigns: { some: { status: "active" } } },
    ...search,
  };
  const rows = await db.marketplaceListing.findMany({
    where,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    skip: (query.page - 1) * MARKETPLACE_PAGE_SIZE,
    take: MARKETPLACE_PAGE_SIZE + 1,
    select: {
      title: true,
      description: true,
      commissionSummary: true,
      category: true,
      logoUrl: true,
      shop: { select: { domain: true, name: true } },
    },
  });
  const cards: MarketplaceCard[] = rows.slice(0, MARKETPLACE_PAGE_SIZE).map((r) => ({
    handle: r.shop.domain.replace(/\.myshopify\.com$/, ""),
    shopName: r.shop.name,
    title: r.title,
    description: r.description,
    commissionSummary: r.commissionSummary,
    category: r.category,
    logoUrl: r.logoUrl,
  }));
  return { cards, page: query.page, hasNext: rows.length > MARKETPLACE_PAGE_SIZE, hasPrevious: query.page > 1 };
}
