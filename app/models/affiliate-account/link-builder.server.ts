import QRCode from "qrcode";
import { z } from "zod";
import type { ShopDb } from "../../db/shop-db.server";
import { affiliateLink, storePathOf } from "../../lib/affiliate-links";
import { cleanTag, MAX_SUB_ID, SUB_ID_PARAM, VIA_PARAM } from "../tracking/link-tags";
import { shopHost } from "../tracking/redirect-url";
import { withUtm, type PromoteLink } from "../settings/promote-link";

// The account area's link builder: a short link (/r/{shop}/{CODE}) to any
// page of the shop's own store, picked from the synced catalogue (a product)
// or typed (a product, collection or page address on the store's primary
// host or its myshopify domain, checked here on the server), with an optional
// sub_id, and its QR code. The QR code encodes the same link plus via=qr, so
// scans are recorded as source "qr" and counted apart (ADR 045).

/** The builder's form (GET, so a built link can be bookmarked and its QR code fetched). */
export const linkBuilderQuery = z.object({
  page: z
    .string()
    .catch("")
    .transform((v) => v.slice(0, 2048)),
  // A synced product's handle.
  product: z
    .string()
    .max(255)
    .regex(/^[a-z0-9][a-z0-9_-]*$/i)
    .optional()
    .catch(undefined),
  // Cleaned like the click path would: a bad value is dropped or cut, never an error.
  sub_id: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => cleanTag(v, MAX_SUB_ID) ?? ""),
});
export type LinkBuilderQuery = z.infer<typeof linkBuilderQuery>;

export interface BuiltLink {
  /** The short link, or null when nothing (valid) was asked for. */
  link: string | null;
  /** The link the QR code encodes (the short link with via=qr). */
  qrLink: string | null;
  /** Something was asked for that is not on the shop's store. */
  invalid: boolean;
}

interface BuilderShop {
  domain: string;
  url: string;
}

export async function buildLink(
  db: ShopDb,
  ctx: { shop: BuilderShop; code: string; appUrl: string; promote: PromoteLink },
  query: LinkBuilderQuery,
): Promise<BuiltLink> {
  let path: string | null = null;
  let asked = false;
  if (query.product) {
    asked = true;
    const product = await db.product.findFirst({
      where: { shopId: db.$shopId, handle: query.product, status: "active" },
      select: { handle: true },
    });
    path = product ? `/products/${encodeURIComponent(product.handle)}` : null;
  } else if (query.page) {
    asked = true;
    path = storePathOf(query.page, [shopHost(ctx.shop), ctx.shop.domain]);
  }
  if (!asked) return { link: null, qrLink: null, invalid: false };
  if (!path) return { link: null, qrLink: null, invalid: true };
  const url = new URL(affiliateLink(ctx.appUrl, ctx.code, ctx.shop.domain, withUtm(path, ctx.promote)));
  if (query.sub_id) url.searchParams.set(SUB_ID_PARAM, query.sub_id);
  const link = url.toString();
  url.searchParams.set(VIA_PARAM, "qr");
  return { link, qrLink: url.toString(), invalid: false };
}

/** The synced products offered in the picker (active, by title). */
export function pickableProducts(db: ShopDb) {
  return db.product.findMany({
    where: { shopId: db.$shopId, status: "active" },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    take: 250,
    select: { handle: true, title: true },
  });
}

export type QrFormat = "svg" | "png";

/** The QR code of a link: SVG text or PNG bytes, with a quiet zone, medium error correction. */
export async function qrCode(link: string, format: QrFormat): Promise<string | Buffer> {
  const options = { errorCorrectionLevel: "M" as const, margin: 4 };
  if (format === "svg") return QRCode.toString(link, { ...options, type: "svg" });
  return QRCode.toBuffer(link, { ...options, type: "png", width: 512 });
}
