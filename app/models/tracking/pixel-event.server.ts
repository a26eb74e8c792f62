import { z } from "zod";
import { getDb } from "../../db.server";
import { shopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { isMyshopifyDomain } from "./redirect-url";
import { parseReferralCode } from "./referral-code";

// The Web Pixel's checkout_completed report (extensions/affiliate-pixel),
// stored as a PixelEvent keyed by (shop, checkout token), so a repeated
// report changes nothing; attribution later matches it to the order by token.

const orderGid = z.union([z.number().int().positive().safe(), z.string().trim().max(255)]).transform((value, ctx) => {
  const text = String(value);
  if (/^\d{1,20}$/.test(text)) return `gid://shopify/Order/${text}`;
  // The pixel may report an OrderIdentity GID; its number is the order's id.
  const gid = /^gid:\/\/shopify\/Order(?:Identity)?\/(\d{1,20})$/.exec(text);
  if (gid) return `gid://shopify/Order/${gid[1]}`;
  if (text === "") return null;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a Shopify order id." });
  return z.NEVER;
});

export const pixelReportSchema = z.object({
  shop: z
    .string()
    .trim()
    .toLowerCase()
    .refine((s) => isMyshopifyDomain(s), "Must be a {name}.myshopify.com domain."),
  checkout_token: z
    .string()
    .trim()
    .min(1, "Required.")
    .max(255)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Not a checkout token."),
  order_id: orderGid.nullish(),
  click_id: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/, "Not a click id.")
    .nullish(),
  ref: z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined || value.trim() === "") return null;
      const code = parseReferralCode(value);
      if (!code) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Not a referral code." });
        return z.NEVER;
      }
      return code;
    }),
});
export type PixelReport = z.infer<typeof pixelReportSchema>;

/**
 * Stores a report (an unknown or uninstalled shop is 404); a repeat only
 * fills in what the first lacked. Returns the stored row, for the order's
 * signal record (attribution/pixel-signal.server.ts).
 */
export async function recordPixelReport(input: PixelReport) {
  const shop = await getDb().shop.findFirst({
    where: { domain: input.shop, uninstalledAt: null },
    select: { id: true },
  });
  if (!shop) throw new AppError("not_found", "Unknown shop.");
  const db = shopDb(getDb(), shop.id);
  // A click id only counts when it is one of this shop's clicks.
  const click = input.click_id
    ? await db.click.findFirst({ where: { clickId: input.click_id }, select: { clickId: true } })
    : null;
  const fields = {
    orderGid: input.order_id ?? null,
    clickId: click?.clickId ?? null,
    referralCode: input.ref,
  };
  const update = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
  const where = { shopId_checkoutToken: { shopId: shop.id, checkoutToken: input.checkout_token } };
  const upsert = () =>
    db.pixelEvent.upsert({
      where,
      create: { shopId: shop.id, checkoutToken: input.checkout_token, ...fields },
      update,
    });
  let stored: Awaited<ReturnType<typeof upsert>>;
  try {
    stored = await upsert();
  } catch (error) {
    // Two reports at once: the other one created the row; update it.
    if ((error as { code?: unknown }).code !== "P2002") throw error;
    stored = await upsert();
  }
  return { shopId: shop.id, pixel: stored };
}
