import { getDb } from "../../db.server";
import {
  portalPageSchema,
  readPageContent,
  repairPageAssets,
  repairRawAssets,
  withSignupCallToAction,
  type PortalPageContent,
  type PortalPageKind,
} from "../../lib/portal-content";
import { AppError, fieldErrorsFromZod } from "../../lib/errors";
import { msg } from "../../i18n/messages";
import { knownAssetPaths } from "../storage/asset-storage.server";

// The merchant's portal pages: a draft being edited and the published copy.
// Every save moves the page's version on by one and names the version it
// was made from, so two people editing the same page cannot overwrite each
// other unseen; every publish keeps its copy in PortalPageVersion.

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
  const stored = readPageContent(row?.draft ?? row?.published ?? null);
  return {
    // The landing page is edited from what affiliates see: the built-in
    // sections until the merchant has their own, and always the Join hero.
    draft: kind === "landing" ? withSignupCallToAction(stored) : stored,
    version: row?.version ?? 0,
    publishedVersion: row?.publishedVersion ?? null,
    publishedAt: row?.publishedAt ?? null,
    updatedAt: row?.updatedAt ?? null,
    hasUnpublishedChanges: !!row && row.draft !== (row.published ?? "{}"),
  };
}

/** Another save got in first: the editor must reload before saving again. */
export function staleVersion() {
  return new AppError("conflict", msg("Portals:errors.stale"));
}

/**
 * Validates and saves the draft; with publish, the draft also becomes what
 * affiliates see, as a new version. `expectedVersion` is the version the
 * editor loaded; when the page has moved on since, nothing changes (409).
 */
export async function savePortalPage(
  shopId: string,
  kind: PortalPageKind,
  raw: unknown,
  publish: boolean,
  expectedVersion: number,
) {
  const known = await knownAssetPaths(shopId);
  const parsed = portalPageSchema.safeParse(repairRawAssets(raw, known));
  if (!parsed.success) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: fieldErrorsFromZod(parsed.error.issues),
    });
  }
  const repaired = repairPageAssets(parsed.data, known);
  const content = kind === "landing" ? withSignupCallToAction(repaired) : repaired;
  const draft = JSON.stringify(content);
  const version = expectedVersion + 1;
  const published = publish ? { published: draft, publishedAt: new Date(), publishedVersion: version } : {};
  const db = getDb();
  await db
    .$transaction(async (tx) => {
      const moved = await tx.portalPage.updateMany({
        where: { shopId, kind, version: expectedVersion },
        data: { draft, version, ...published },
      });
      if (moved.count !== 1) {
        // Only the first save of a page creates its row; a concurrent first
        // save loses on the (shopId, kind) key (P2002, below).
        if (expectedVersion !== 0) throw staleVersion();
        await tx.portalPage.create({ data: { shopId, kind, draft, version, ...published } });
      }
      const { id: pageId } = await tx.portalPage.findUniqueOrThrow({
        where: { shopId_kind: { shopId, kind } },
        select: { id: true },
      });
      if (publish) await tx.portalPageVersion.create({ data: { shopId, pageId, version, content: draft } });
    })
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === "P2002") throw staleVersion();
      throw error;
    });
  return { content, version };
}
