import { randomInt } from "node:crypto";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { AppError, type FieldErrors } from "../../lib/errors";
import { afterCursor, pageOrder, toPage } from "./pagination.server";
import type { AffiliateCreate, AffiliateListQuery, AffiliateUpdate } from "./schemas";
import { serializeAffiliate, type LinkContext } from "./serializers";

// Affiliates of the API key's shop. E-mail, referral code and coupon codes
// are unique per shop (409 conflict naming the field); campaign and upline
// must belong to the shop, and an upline must not create a cycle (422).

export interface ShopRef {
  id: string;
  domain: string;
  referralParam: string;
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0];

const include = { coupons: { select: { code: true } } } as const;
// Guards the upline walk against absurd (or already corrupt) chains.
const MAX_UPLINE_DEPTH = 1000;

function links(shop: ShopRef): LinkContext {
  return { appUrl: getConfig().appUrl, shopDomain: shop.domain, referralParam: shop.referralParam };
}

const invalid = (fields: FieldErrors) => new AppError("validation_failed", "Some fields are not valid.", { fields });
const conflict = (field: string, message: string) =>
  new AppError("conflict", message, { fields: { [field]: message } });

/** Concurrent writers can still collide on a unique index: that is a conflict too, not a 500. */
function mapUniqueViolation(error: unknown): never {
  if ((error as { code?: string })?.code === "P2002") {
    throw new AppError("conflict", "The e-mail, referral code or a coupon code was taken meanwhile; try again.");
  }
  throw error;
}

async function requireCampaign(tx: Tx, shopId: string, campaignId: string | undefined) {
  if (campaignId) {
    const campaign = await tx.campaign.findFirst({ where: { id: campaignId, shopId } });
    if (!campaign) throw invalid({ campaign_id: "No campaign with this id in this shop" });
    return campaign;
  }
  const fallback = await tx.campaign.findFirst({ where: { shopId, isDefault: true }, orderBy: { createdAt: "asc" } });
  if (!fallback) throw invalid({ campaign_id: "This shop has no default campaign: give campaign_id" });
  return fallback;
}

/** Checks parent_id: same shop, not itself, and not one of its own downline (walks the upline chain). */
async function checkUpline(tx: Tx, shopId: string, affiliateId: string | null, parentId: string) {
  if (parentId === affiliateId) throw invalid({ parent_id: "An affiliate cannot be its own upline" });
  const parent = await tx.affiliate.findFirst({
    where: { id: parentId, shopId },
    select: { id: true, parentId: true },
  });
  if (!parent) throw invalid({ parent_id: "No affiliate with this id in this shop" });
  if (!affiliateId) return; // a new affiliate has no downline yet
  const seen = new Set<string>([parent.id]);
  let next = parent.parentId;
  for (let depth = 0; next && depth < MAX_UPLINE_DEPTH; depth++) {
    if (next === affiliateId)
      throw invalid({ parent_id: "This upline would create a cycle: the affiliate is already above it" });
    if (seen.has(next)) return; // an existing loop that does not involve this affiliate
    seen.add(next);
    const row = await tx.affiliate.findFirst({ where: { id: next, shopId }, select: { parentId: true } });
    next = row?.parentId ?? null;
  }
}

async function checkEmail(tx: Tx, shopId: string, email: string, selfId?: string) {
  const other = await tx.affiliate.findFirst({
    where: { shopId, email, ...(selfId ? { id: { not: selfId } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict("email", `An affiliate with the e-mail ${email} exists already.`);
}

async function checkReferralCode(tx: Tx, shopId: string, code: string, selfId?: string) {
  const other = await tx.affiliate.findFirst({
    where: { shopId, referralCode: code, ...(selfId ? { id: { not: selfId } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict("referral_code", `The referral code ${code} is taken.`);
}

async function checkCoupons(tx: Tx, shopId: string, codes: string[], selfId?: string) {
  if (!codes.length) return;
  const taken = await tx.coupon.findFirst({
    where: { shopId, code: { in: codes }, ...(selfId ? { affiliateId: { not: selfId } } : {}) },
    select: { code: true },
  });
  if (taken) throw conflict("coupon_codes", `The coupon code ${taken.code} belongs to another affiliate.`);
}

/** JANE + DOE → JANEDOE, then JANEDOE4821 and so on until one is free. */
export function referralCodeBase(firstName: string, lastName: string): string {
  const letters = `${firstName}${lastName}`
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()
    .slice(0, 16);
  return letters.length >= 3 ? letters : `AFF${letters}`;
}

export async function generateReferralCode(tx: Tx, shopId: string, firstName: string, lastName: string): Promise<string> {
  const base = referralCodeBase(firstName, lastName);
  const candidates = [
    base,
    ...Array.from({ length: 8 }, () => `${base}${randomInt(1000, 10_000)}`),
    `${base}${randomInt(10_000_000, 100_000_000)}`,
  ];
  for (const code of candidates) {
    const taken = await tx.affiliate.findFirst({ where: { shopId, referralCode: code }, select: { id: true } });
    if (!taken) return code;
  }
  throw new AppError("conflict", "Could not generate a free referral code; give referral_code.");
}

export async function listAffiliates(shop: ShopRef, query: AffiliateListQuery) {
  const rows = await getDb().affiliate.findMany({
    where: {
      shopId: shop.id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.campaign_id ? { campaignId: query.campaign_id } : {}),
      ...afterCursor(query.cursor),
    },
    orderBy: pageOrder,
    take: query.limit + 1,
    include,
  });
  const context = links(shop);
  return toPage(rows, query.limit, (row) => serializeAffiliate(row, context));
}

export async function getAffiliate(shop: ShopRef, id: string) {
  const row = await getDb().affiliate.findFirst({ where: { id, shopId: shop.id }, include });
  if (!row) throw new AppError("not_found", "No affiliate with this id.");
  return serializeAffiliate(row, links(shop));
}

export async function createAffiliate(shop: ShopRef, input: AffiliateCreate) {
  const row = await getDb()
    .$transaction(async (tx) => {
      const campaign = await requireCampaign(tx, shop.id, input.campaign_id);
      if (input.parent_id) await checkUpline(tx, shop.id, null, input.parent_id);
      await checkEmail(tx, shop.id, input.email);
      if (input.referral_code) await checkReferralCode(tx, shop.id, input.referral_code);
      await checkCoupons(tx, shop.id, input.coupon_codes);
      const referralCode =
        input.referral_code ?? (await generateReferralCode(tx, shop.id, input.first_name, input.last_name));
      return tx.affiliate.create({
        data: {
          shopId: shop.id,
          campaignId: campaign.id,
          parentId: input.parent_id,
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          status: input.status ?? (campaign.autoApproveAffiliates ? "approved" : "pending"),
          referralCode,
          coupons: { create: input.coupon_codes.map((code) => ({ shopId: shop.id, code })) },
        },
        include,
      });
    })
    .catch(mapUniqueViolation);
  return serializeAffiliate(row, links(shop));
}

export async function updateAffiliate(shop: ShopRef, id: string, input: AffiliateUpdate) {
  const row = await getDb()
    .$transaction(async (tx) => {
      const current = await tx.affiliate.findFirst({ where: { id, shopId: shop.id }, select: { id: true } });
      if (!current) throw new AppError("not_found", "No affiliate with this id.");
      if (input.campaign_id) await requireCampaign(tx, shop.id, input.campaign_id);
      if (input.parent_id) await checkUpline(tx, shop.id, id, input.parent_id);
      if (input.email) await checkEmail(tx, shop.id, input.email, id);
      if (input.referral_code) await checkReferralCode(tx, shop.id, input.referral_code, id);
      if (input.coupon_codes) {
        await checkCoupons(tx, shop.id, input.coupon_codes, id);
        await tx.coupon.deleteMany({ where: { affiliateId: id } });
      }
      return tx.affiliate.update({
        where: { id },
        data: {
          campaignId: input.campaign_id,
          parentId: input.parent_id,
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          status: input.status,
          referralCode: input.referral_code,
          ...(input.coupon_codes
            ? { coupons: { create: input.coupon_codes.map((code) => ({ shopId: shop.id, code })) } }
            : {}),
        },
        include,
      });
    })
    .catch(mapUniqueViolation);
  return serializeAffiliate(row, links(shop));
}
