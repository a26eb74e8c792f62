import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { affiliateLink } from "../../lib/affiliate-links";
import { AppError } from "../../lib/errors";
import { creativeStorage, thumbnailFor } from "./creative-storage.server";
import { GALLERY_PAGE_SIZE, type CreativeUseAction, type GalleryQuery } from "./creative-schemas";
import { buildEmbedCode, fillCaption } from "./embed-code";
import { creativeFileUrl } from "./merchant-creatives.server";

// The affiliate's side: the gallery of the creatives their campaign may
// use, and the counting of what they take. Who counts is always the
// logged-in affiliate, and only for a creative they can see, so one shop's
// or affiliate's requests can never move another's numbers.

export interface GalleryViewer {
  affiliate: { id: string; campaignId: string; referralCode: string };
  shop: { id: string; domain: string };
  appUrl: string;
}

const visibleTo = (campaignId: string) => ({
  active: true,
  OR: [{ allCampaigns: true }, { campaigns: { some: { campaignId } } }],
});

export async function galleryFor(db: ShopDb, viewer: GalleryViewer, query: GalleryQuery) {
  const where = {
    ...visibleTo(viewer.affiliate.campaignId),
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.category ? { category: query.category } : {}),
  };
  const [total, rows, categoryGroups] = await Promise.all([
    db.creative.count({ where }),
    db.creative.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * GALLERY_PAGE_SIZE,
      take: GALLERY_PAGE_SIZE,
    }),
    db.creative.groupBy({
      by: ["category"],
      where: { ...visibleTo(viewer.affiliate.campaignId), category: { not: "" } },
    }),
  ]);
  const base = viewer.appUrl.replace(/\/+$/, "");
  const linkTo = (path: string | null) =>
    affiliateLink(viewer.appUrl, viewer.affiliate.referralCode, viewer.shop.domain, path ?? "/");
  return {
    items: rows.map((c) => {
      const link = linkTo(c.destinationPath);
      const image = c.kind === "image" ? creativeFileUrl(c.shopId, c.fileName) : null;
      return {
        id: c.id,
        kind: c.kind,
        title: c.title,
        category: c.category,
        description: c.description,
        thumbnail: c.kind === "image" ? creativeFileUrl(c.shopId, thumbnailFor(c, 480)) : null,
        width: c.width,
        height: c.height,
        link,
        embedCode:
          image !== null
            ? buildEmbedCode({ href: link, src: `${base}${image}`, alt: c.title, width: c.width, height: c.height })
            : null,
        caption: c.kind === "text" ? fillCaption(c.body ?? "", link) : null,
        videoUrl: c.kind === "video" ? c.videoUrl : null,
        file:
          c.kind === "image" || c.kind === "file"
            ? { name: c.originalName ?? c.fileName ?? "", size: c.sizeBytes ?? 0, type: c.mimeType ?? "" }
            : null,
      };
    }),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE)),
    categories: categoryGroups.map((g) => g.category).sort((a, b) => a.localeCompare(b)),
  };
}

/** A creative this affiliate may use, else 404 (another shop's or campaign's is not there for them). */
export async function visibleCreative(db: ShopDb, campaignId: string, id: string) {
  const creative = await db.creative.findFirst({ where: { id, ...visibleTo(campaignId) } });
  if (!creative) throw new AppError("not_found", msg("Account.Creatives:notFound"));
  return creative;
}

/**
 * Counts one use: at most one per affiliate, creative, action and UTC day,
 * so pressing a button again (or a script replaying it) adds nothing.
 */
export async function recordCreativeUse(
  db: ShopDb,
  affiliate: { id: string; campaignId: string },
  creativeId: string,
  action: CreativeUseAction,
  now = new Date(),
): Promise<{ counted: boolean }> {
  const creative = await visibleCreative(db, affiliate.campaignId, creativeId);
  const day = now.toISOString().slice(0, 10);
  const key = { creativeId: creative.id, affiliateId: affiliate.id, action, day };
  const already = await db.creativeUse.findFirst({ where: key, select: { id: true } });
  if (already) return { counted: false };
  try {
    await db.creativeUse.create({ data: { shopId: db.$shopId, ...key } });
    return { counted: true };
  } catch (error) {
    // Two presses at once: the unique key lets one through.
    if ((error as { code?: string }).code === "P2002") return { counted: false };
    throw error;
  }
}

/** The file of a creative for download, counted. */
export async function downloadCreative(db: ShopDb, affiliate: { id: string; campaignId: string }, id: string) {
  const creative = await visibleCreative(db, affiliate.campaignId, id);
  if (!creative.fileName || (creative.kind !== "image" && creative.kind !== "file")) {
    throw new AppError("not_found", msg("Account.Creatives:notFound"));
  }
  const opened = await (await creativeStorage()).open(db.$shopId, creative.fileName);
  if (!opened) throw new AppError("not_found", msg("Account.Creatives:notFound"));
  await recordCreativeUse(db, affiliate, creative.id, "download");
  return {
    ...opened,
    name: creative.originalName ?? creative.fileName,
    type: creative.mimeType ?? "application/octet-stream",
  };
}
