import { rm } from "node:fs/promises";
import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { storePathOf } from "../../lib/affiliate-links";
import { AppError } from "../../lib/errors";
import { storedFileName } from "../storage/asset-storage.server";
import { shopHost } from "../tracking/redirect-url";
import { CREATIVE_FILES_PREFIX, creativeStorage, parseThumbnails, thumbnailFor } from "./creative-storage.server";
import {
  CREATIVES_PAGE_SIZE,
  CREATIVE_USE_ACTIONS,
  type CreativeForm,
  type CreativeListQuery,
  type CreativeUseAction,
} from "./creative-schemas";
import { FILE_TYPES, titleFromFileName } from "./file-types";
import type { ReceivedUpload } from "./receive-upload.server";
import { makeThumbnails } from "./thumbnails.server";

// The merchant's side of creatives: an upload becomes a creative at once
// (shown to every campaign, linking to the store's home page) and is then
// edited; video links and text snippets are made with the form.

type ShopHosts = { domain: string; url: string };

export type UseCounts = Record<CreativeUseAction, number>;

const zeroCounts = (): UseCounts => ({ download: 0, embed: 0, copy: 0 });

async function countsOf(db: ShopDb, ids: string[]): Promise<Map<string, UseCounts>> {
  const counts = new Map<string, UseCounts>(ids.map((id) => [id, zeroCounts()]));
  if (ids.length === 0) return counts;
  const groups = await db.creativeUse.groupBy({
    by: ["creativeId", "action"],
    where: { creativeId: { in: ids } },
    _count: { _all: true },
  });
  for (const g of groups) {
    const row = counts.get(g.creativeId);
    if (row && (CREATIVE_USE_ACTIONS as readonly string[]).includes(g.action)) {
      row[g.action as CreativeUseAction] = g._count._all;
    }
  }
  return counts;
}

/** Public path of a stored image file (thumbnails and originals of images only). */
export function creativeFileUrl(shopId: string, fileName: string | null): string | null {
  return fileName ? `${CREATIVE_FILES_PREFIX}${shopId}/${fileName}` : null;
}

/** Stores an upload that passed the checks and makes it a creative. */
export async function createCreativeFromUpload(db: ShopDb, upload: ReceivedUpload): Promise<{ id: string }> {
  const shopId = db.$shopId;
  const info = FILE_TYPES[upload.type];
  const storage = await creativeStorage();
  const fileName = storedFileName(upload.name);
  const stored: string[] = [];
  try {
    const facts = info.kind === "image" ? await makeThumbnails(upload.tmpPath) : null;
    await storage.putFile(shopId, fileName, upload.tmpPath);
    stored.push(fileName);
    const thumbnails: Record<string, string> = {};
    for (const thumb of facts?.thumbnails ?? []) {
      const name = fileName.replace(/\.[a-z0-9]+$/, `-w${thumb.width}.webp`);
      await storage.put(shopId, name, thumb.bytes);
      stored.push(name);
      thumbnails[thumb.width] = name;
    }
    const creative = await db.creative.create({
      data: {
        shopId,
        kind: info.kind,
        title: titleFromFileName(upload.name),
        fileName,
        originalName: upload.name.replace(/^.*[\\/]/, "").slice(0, 200),
        mimeType: info.mime,
        sizeBytes: upload.size,
        width: facts?.width ?? null,
        height: facts?.height ?? null,
        thumbnails: JSON.stringify(thumbnails),
        destinationPath: info.kind === "image" ? "/" : null,
      },
      select: { id: true },
    });
    return creative;
  } catch (error) {
    // Nothing half-made stays behind: no row, no files.
    await Promise.all(stored.map((name) => storage.remove(shopId, name).catch(() => undefined)));
    throw error;
  } finally {
    await rm(upload.tmpPath, { force: true });
  }
}

export async function listCreatives(db: ShopDb, query: CreativeListQuery) {
  const where = {
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.category ? { category: query.category } : {}),
    ...(query.q ? { title: { contains: query.q } } : {}),
  };
  const [total, rows, categories] = await Promise.all([
    db.creative.count({ where }),
    db.creative.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * CREATIVES_PAGE_SIZE,
      take: CREATIVES_PAGE_SIZE,
      select: {
        id: true,
        kind: true,
        title: true,
        category: true,
        active: true,
        allCampaigns: true,
        fileName: true,
        thumbnails: true,
        createdAt: true,
        _count: { select: { campaigns: true } },
      },
    }),
    categoriesOf(db),
  ]);
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    rows: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      category: r.category,
      active: r.active,
      campaignCount: r.allCampaigns ? null : r._count.campaigns,
      thumbnail: r.kind === "image" ? creativeFileUrl(db.$shopId, thumbnailFor(r, 160)) : null,
      createdAt: r.createdAt.toISOString(),
      uses: counts.get(r.id) ?? zeroCounts(),
    })),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / CREATIVES_PAGE_SIZE)),
    categories,
  };
}

async function categoriesOf(db: ShopDb): Promise<string[]> {
  const groups = await db.creative.groupBy({ by: ["category"], where: { category: { not: "" } } });
  return groups.map((g) => g.category).sort((a, b) => a.localeCompare(b));
}

export async function creativeForEditing(db: ShopDb, id: string) {
  const creative = await db.creative.findFirst({
    where: { id },
    include: { campaigns: { select: { campaignId: true } } },
  });
  if (!creative) throw new AppError("not_found", msg("Creatives:errors.notFound"));
  const [counts, categories, campaigns] = await Promise.all([
    countsOf(db, [id]),
    categoriesOf(db),
    campaignChoices(db),
  ]);
  const thumbs = parseThumbnails(creative.thumbnails);
  return {
    creative: {
      id: creative.id,
      kind: creative.kind,
      title: creative.title,
      category: creative.category,
      description: creative.description,
      destination: creative.destinationPath ?? "",
      videoUrl: creative.videoUrl ?? "",
      body: creative.body ?? "",
      allCampaigns: creative.allCampaigns,
      campaignIds: creative.campaigns.map((c) => c.campaignId),
      active: creative.active,
      originalName: creative.originalName,
      mimeType: creative.mimeType,
      sizeBytes: creative.sizeBytes,
      width: creative.width,
      height: creative.height,
      preview: creative.kind === "image" ? creativeFileUrl(db.$shopId, thumbs[480] ?? creative.fileName) : null,
      thumbnailCount: Object.keys(thumbs).length,
      createdAt: creative.createdAt.toISOString(),
    },
    uses: counts.get(id) ?? zeroCounts(),
    categories,
    campaigns,
  };
}

function campaignChoices(db: ShopDb) {
  return db.campaign.findMany({ select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

/** What the form needs to make a new video link or text snippet. */
export async function newCreativeChoices(db: ShopDb) {
  const [categories, campaigns] = await Promise.all([categoriesOf(db), campaignChoices(db)]);
  return { categories, campaigns };
}

/** Creates (id null: a video link or text) or updates a creative from the form. */
export async function saveCreative(
  db: ShopDb,
  shop: ShopHosts,
  id: string | null,
  form: CreativeForm,
): Promise<{ id: string }> {
  const existing = id ? await db.creative.findFirst({ where: { id }, select: { id: true, kind: true } }) : null;
  if (id && !existing) throw new AppError("not_found", msg("Creatives:errors.notFound"));
  const kind = existing?.kind ?? form.kind;
  if (!existing && (kind === "image" || kind === "file")) {
    // Images and files come in through the upload, which makes their creative.
    throw new AppError("bad_request", msg("Creatives:errors.uploadFirst"));
  }
  let destinationPath: string | null = null;
  if (kind === "image" || kind === "text") {
    const typed = form.destination.trim();
    destinationPath = typed ? storePathOf(typed, [shopHost(shop), shop.domain]) : "/";
    if (!destinationPath) {
      throw new AppError("validation_failed", "Some fields are not valid.", {
        fields: { destination: msg("Creatives:validation.destination") },
      });
    }
  }
  const campaignIds = form.allCampaigns ? [] : [...new Set(form.campaignIds)];
  if (campaignIds.length) {
    const found = await db.campaign.count({ where: { id: { in: campaignIds } } });
    if (found !== campaignIds.length) {
      throw new AppError("validation_failed", "Some fields are not valid.", {
        fields: { campaignIds: msg("Creatives:validation.campaigns") },
      });
    }
  }
  const data = {
    title: form.title,
    category: form.category,
    description: form.description,
    destinationPath,
    videoUrl: kind === "video" ? form.videoUrl : null,
    body: kind === "text" ? form.body : null,
    allCampaigns: form.allCampaigns,
    active: form.active,
  };
  return db.$transaction(async (tx) => {
    const saved = existing
      ? await tx.creative.update({ where: { id: existing.id }, data, select: { id: true } })
      : await tx.creative.create({ data: { ...data, shopId: db.$shopId, kind }, select: { id: true } });
    await tx.creativeCampaign.deleteMany({ where: { creativeId: saved.id } });
    if (campaignIds.length) {
      await tx.creativeCampaign.createMany({
        data: campaignIds.map((campaignId) => ({ shopId: db.$shopId, creativeId: saved.id, campaignId })),
      });
    }
    return saved;
  });
}

export async function deleteCreative(db: ShopDb, id: string): Promise<void> {
  const creative = await db.creative.findFirst({
    where: { id },
    select: { id: true, fileName: true, thumbnails: true },
  });
  if (!creative) throw new AppError("not_found", msg("Creatives:errors.notFound"));
  await db.creative.delete({ where: { id: creative.id } });
  // Files go after the row: a failure leaves an unused file, never a creative without its file.
  const storage = await creativeStorage();
  const names = [creative.fileName, ...Object.values(parseThumbnails(creative.thumbnails))].filter(
    (n): n is string => !!n,
  );
  await Promise.all(names.map((n) => storage.remove(db.$shopId, n).catch(() => undefined)));
}

/** The stored file of this shop's creative, for the merchant to open. */
export async function creativeFileForMerchant(db: ShopDb, id: string) {
  const creative = await db.creative.findFirst({
    where: { id },
    select: { fileName: true, originalName: true, mimeType: true },
  });
  const opened = creative?.fileName ? await (await creativeStorage()).open(db.$shopId, creative.fileName) : null;
  if (!creative || !opened) throw new AppError("not_found", msg("Creatives:errors.notFound"));
  return {
    ...opened,
    name: creative.originalName ?? creative.fileName!,
    type: creative.mimeType ?? "application/octet-stream",
  };
}
