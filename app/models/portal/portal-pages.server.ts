import { getDb } from "../../db.server";
import {
  portalPageSchema,
  readPageContent,
  repairPageAssets,
  repairRawAssets,
  type PortalPageContent,
  type PortalPageKind,
} from "../../lib/portal-content";
import { AppError, fieldErrorsFromZod } from "../../lib/errors";
import { knownAssetPaths } from "../storage/asset-storage.server";

// The merchant's portal pages: a draft being edited and the published copy.

/** The published page as affiliates see it (image paths repaired), or null for the built-in page. */
export async function publishedPage(shopId: string, kind: PortalPageKind): Promise<PortalPageContent | null> {
  const row = await getDb().portalPage.findUnique({
    where: { shopId_kind: { shopId, kind } },
    select: { published: true },
  });
  if (!row?.published) return null;
  return repairPageAssets(readPageContent(row.published), await knownAssetPaths(shopId));
}

export async function pageForEditing(shopId: string, kind: PortalPageKind) {
  const row = await getDb().portalPage.findUnique({ where: { shopId_kind: { shopId, kind } } });
  return {
    draft: readPageContent(row?.draft ?? row?.published ?? null),
    publishedAt: row?.publishedAt ?? null,
    updatedAt: row?.updatedAt ?? null,
    hasUnpublishedChanges: !!row && row.draft !== (row.published ?? "{}"),
  };
}

/** Validates and saves the draft; with publish, the draft also becomes what affiliates see. */
export async function savePortalPage(shopId: string, kind: PortalPageKind, raw: unknown, publish: boolean) {
  const known = await knownAssetPaths(shopId);
  const parsed = portalPageSchema.safeParse(repairRawAssets(raw, known));
  if (!parsed.success) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  const content = repairPageAssets(parsed.data, known);
  const draft = JSON.stringify(content);
  const published = publish ? { published: draft, publishedAt: new Date() } : {};
  await getDb().portalPage.upsert({
    where: { shopId_kind: { shopId, kind } },
    create: { shopId, kind, draft, ...published },
    update: { draft, ...published },
  });
  return content;
}
