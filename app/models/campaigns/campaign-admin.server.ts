import type { ShopDb } from "../../db/shop-db.server";
import { containsText } from "../../db/text-search.server";
import { AppError } from "../../lib/errors";
import { serializeCampaign, type CampaignCreate, type CampaignOut } from "./campaign-schemas";
import type { CampaignStatus } from "./campaign-options";
import { keysetPage, keysetQuery, type KeysetRequest } from "../pagination/keyset.server";
import { campaignInclude, createCampaign } from "./campaigns.server";

// What the admin does with campaigns beyond the REST API's create/update:
// the list with affiliate counts, duplicate and delete.

export interface CampaignListFilters extends KeysetRequest {
  status?: CampaignStatus;
  query?: string;
}

/** A cursor that does not decode names a page of the list that does not exist. */
function pageOrNotFound<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AppError) throw new AppError("not_found", "This page of the list does not exist.");
    throw error;
  }
}

export async function listCampaignsPage(db: ShopDb, filters: CampaignListFilters) {
  const shopId = db.$shopId;
  const page = pageOrNotFound(() => keysetQuery("createdAt", filters));
  const where = {
    shopId,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.query ? { name: containsText(filters.query) } : {}),
  };
  // Only what the list shows (the rows go to the page as JSON): no rules,
  // coupon or level details, just how many levels.
  const fetched = await db.campaign.findMany({
    where: { AND: [where, page.where] },
    orderBy: page.orderBy,
    take: page.take,
    select: {
      id: true,
      name: true,
      status: true,
      isDefault: true,
      commissionType: true,
      commissionValue: true,
      createdAt: true,
      _count: { select: { levels: true } },
    },
  });
  const result = keysetPage("createdAt", filters, fetched, (row) => row.createdAt);
  const ids = result.rows.map((row) => row.id);
  const counts = ids.length
    ? await db.affiliate.groupBy({
        by: ["campaignId"],
        where: { shopId, campaignId: { in: ids } },
        _count: { _all: true },
      })
    : [];
  const countOf = new Map(counts.map((c) => [c.campaignId, c._count._all]));
  return {
    campaigns: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status as CampaignStatus,
      is_default: row.isDefault,
      commission_type: row.commissionType as CampaignOut["commission_type"],
      commission_value: row.commissionValue,
      level_count: row._count.levels,
      affiliate_count: countOf.get(row.id) ?? 0,
      created_at: row.createdAt.toISOString(),
    })),
    after: result.after,
    before: result.before,
  };
}

export async function campaignAffiliateCount(db: ShopDb, campaignId: string) {
  const shopId = db.$shopId;
  return db.affiliate.count({ where: { shopId, campaignId } });
}

/**
 * Deletes a campaign with its levels and rules. Refused while affiliates are
 * on it (their commissions follow its terms) and for the default campaign
 * (new affiliates join it). The checks and the delete share a transaction.
 */
export async function deleteCampaign(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  await db.$transaction(async (tx) => {
    const campaign = await tx.campaign.findFirst({ where: { id, shopId }, select: { isDefault: true, name: true } });
    if (!campaign) throw new AppError("not_found", "No campaign with this id.");
    if (campaign.isDefault) {
      throw new AppError(
        "conflict",
        `“${campaign.name}” is the default campaign and cannot be deleted. Make another campaign the default first.`,
      );
    }
    const affiliates = await tx.affiliate.count({ where: { shopId, campaignId: id } });
    if (affiliates > 0) {
      const who = affiliates === 1 ? "1 affiliate is" : `${affiliates} affiliates are`;
      throw new AppError(
        "conflict",
        `“${campaign.name}” cannot be deleted: ${who} on it. Move them to another campaign first.`,
      );
    }
    await tx.campaign.delete({ where: { id } });
  });
}

const COPY_PREFIX = "Copy of ";

/** A draft copy of a campaign (terms, levels, rules, coupon settings); never the default. */
export async function duplicateCampaign(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  const source = await db.campaign.findFirst({ where: { id, shopId }, include: campaignInclude });
  if (!source) throw new AppError("not_found", "No campaign with this id.");
  const { id: _id, createdAt: _c, updatedAt: _u, levels, rules, ...terms } = source;
  const copy = await db.campaign.create({
    data: {
      ...terms,
      name: `${COPY_PREFIX}${source.name}`.slice(0, 100),
      status: "draft",
      isDefault: false,
      levels: { create: levels.map((l) => ({ level: l.level, basis: l.basis, rate: l.rate })) },
      rules: {
        create: rules.map((r) => ({
          targetType: r.targetType,
          targetGid: r.targetGid,
          targetTitle: r.targetTitle,
          targetImageUrl: r.targetImageUrl,
          kind: r.kind,
          commissionType: r.commissionType,
          value: r.value,
        })),
      },
    },
    include: campaignInclude,
  });
  return serializeCampaign(copy);
}

/** Bulk state change from the list; ids of other shops are not touched (and not counted). */
export async function setCampaignsStatus(db: ShopDb, ids: string[], status: CampaignStatus) {
  const shopId = db.$shopId;
  const { count } = await db.campaign.updateMany({ where: { shopId, id: { in: ids } }, data: { status } });
  return { changed: count, status };
}

export async function shopHasDefaultCampaign(db: ShopDb) {
  const shopId = db.$shopId;
  return (await db.campaign.count({ where: { shopId, isDefault: true } })) > 0;
}

/**
 * Creates a campaign from the admin. A shop without a default campaign gets
 * this one as its default, so the admin never leaves a shop with none (new
 * affiliates join the default). Two first campaigns saved at once still end
 * with one default: setting a default clears the others in its transaction.
 */
export async function createAdminCampaign(db: ShopDb, input: CampaignCreate) {
  const makeDefault = input.is_default || !(await shopHasDefaultCampaign(db));
  return createCampaign(db, { ...input, is_default: makeDefault });
}
