import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { currencyExponent } from "../../lib/money";
import { creativeFileUrl } from "../creatives/merchant-creatives.server";
import { requireEditable } from "../plans/plan-usage.server";
import { knownAssetPaths } from "../storage/asset-storage.server";
import { portalDomainState } from "../portal/portal-domain.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { shopSettingsObject } from "../settings/shop-settings";
import { couponValueStored, couponValueText, type CouponForm } from "./coupon-form";
import { readShareSettings, type ShareSettings } from "./share-settings";

const couponSelect = {
  id: true,
  name: true,
  couponEnabled: true,
  couponDiscountType: true,
  couponDiscountValue: true,
  couponPrefix: true,
  couponOncePerCustomer: true,
} as const;

type CouponRow = {
  id: string;
  couponEnabled: boolean;
  couponDiscountType: string;
  couponDiscountValue: number;
  couponPrefix: string;
  couponOncePerCustomer: boolean;
};

function toCouponForm(row: CouponRow, exponent: number): CouponForm {
  return {
    campaignId: row.id,
    enabled: row.couponEnabled,
    discountType: row.couponDiscountType === "fixed_amount" ? "fixed_amount" : "percentage",
    value: couponValueText(row.couponDiscountType, row.couponDiscountValue, exponent),
    prefix: row.couponPrefix,
    oncePerCustomer: row.couponOncePerCustomer,
  };
}

/** The shop's share texts and images (Shop.settings "share"). */
export async function getShareSettings(db: ShopDb): Promise<ShareSettings> {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return readShareSettings(shopSettingsObject(shop.settings).share);
}

/** Image creatives the merchant may pick as share images (newest first). */
async function shareableCreatives(db: ShopDb) {
  const rows = await db.creative.findMany({
    where: { kind: "image", active: true, fileName: { not: null } },
    orderBy: { createdAt: "desc" },
    take: 60,
    select: { id: true, title: true, fileName: true },
  });
  return rows.map((r) => ({ id: r.id, title: r.title, url: creativeFileUrl(db.$shopId, r.fileName)! }));
}

/**
 * Settings > Marketings: every campaign's coupon settings (the one chosen in
 * the form), the share texts and images, and the portal's custom domain.
 */
export async function marketingsSettings(db: ShopDb, chosen?: string) {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { currency: true } });
  const exponent = currencyExponent(shop.currency);
  const campaigns = await db.campaign.findMany({
    where: { status: { not: "archived" } },
    orderBy: [{ isDefault: "desc" }, { name: "asc" }],
    take: 200,
    select: couponSelect,
  });
  const current = campaigns.find((c) => c.id === chosen) ?? campaigns[0] ?? null;
  return {
    campaigns,
    coupon: current ? toCouponForm(current, exponent) : null,
    share: await getShareSettings(db),
    creatives: await shareableCreatives(db),
    domain: await portalDomainState(db.$shopId),
  };
}

/** Saves one campaign's coupon settings; an over-limit (read-only) campaign refuses. */
export async function saveCampaignCoupon(db: ShopDb, planId: string | null, form: CouponForm) {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { currency: true } });
  const exponent = currencyExponent(shop.currency);
  const campaign = await db.campaign.findFirst({ where: { id: form.campaignId }, select: { id: true } });
  if (!campaign) throw new AppError("not_found", "No campaign with this id.");
  await requireEditable(db, planId, "campaigns", [campaign.id]);
  const stored = couponValueStored(form.discountType, form.value, exponent);
  if (stored === null) {
    const message = msg("Global:validation.invalid");
    throw new AppError("validation_failed", message, { fields: { value: message } });
  }
  const row = await db.campaign.update({
    where: { id: campaign.id },
    data: {
      couponEnabled: form.enabled,
      couponDiscountType: form.discountType,
      couponDiscountValue: stored,
      couponPrefix: form.prefix.toUpperCase(),
      couponOncePerCustomer: form.oncePerCustomer,
    },
    select: couponSelect,
  });
  return toCouponForm(row, exponent);
}

/** Saves the share texts and images; every image must be one of this shop's. */
export async function saveShareSettings(db: ShopDb, share: ShareSettings) {
  const allowed = new Set([
    ...(await knownAssetPaths(db.$shopId)),
    ...(await shareableCreatives(db)).map((c) => c.url),
  ]);
  const bad = share.images.findIndex((path) => !allowed.has(path));
  if (bad >= 0) {
    const message = msg("Settings.Marketings:share.validation.image");
    throw new AppError("validation_failed", message, { fields: { images: message } });
  }
  await saveShopSetting(db, db.$shopId, "share", share);
  return share;
}
