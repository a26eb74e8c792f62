import { randomInt } from "node:crypto";
import { AppError, type FieldErrors } from "../../lib/errors";
import type { AffiliateCreate, AffiliateUpdate } from "./affiliate-schemas";
import type { Tx } from "../../db/transaction";
import { emitEvent } from "../events/emit-event.server";
import { queueCouponPush } from "../marketings/push-typed-coupons.server";

// Creating and changing affiliates, shared by the REST API, the admin screens
// and the CSV import. Every function works inside a transaction the caller
// opened, so an import of many rows commits all of them or none.
// E-mail, referral code and coupon codes are unique per shop (409 conflict
// naming the field); campaign and upline must belong to the shop, and an
// upline must not create a cycle (422).

export const affiliateInclude = {
  coupons: { select: { code: true, shopifyStatus: true, shopifyError: true }, orderBy: { createdAt: "asc" } },
  referralAliases: { select: { code: true, source: true }, orderBy: { code: "asc" } },
  tags: { select: { tag: true }, orderBy: { tag: "asc" } },
} as const;
// Guards the upline walk against absurd (or already corrupt) chains.
const MAX_UPLINE_DEPTH = 1000;

/** Messages of the uniqueness checks, shared with the CSV import's bulk checks. */
export const TAKEN = {
  email: (email: string) => `An affiliate with the e-mail ${email} exists already.`,
  referralCode: (code: string) => `The referral code ${code} is taken.`,
  coupon: (code: string) => `The coupon code ${code} belongs to another affiliate.`,
};

const invalid = (fields: FieldErrors) => new AppError("validation_failed", "Some fields are not valid.", { fields });
const conflict = (field: string, message: string) =>
  new AppError("conflict", message, { fields: { [field]: message } });

/** Concurrent writers can still collide on a unique index: that is a conflict too, not a 500. */
export function mapUniqueViolation(error: unknown): never {
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
  if (!fallback) throw invalid({ campaign_id: "This shop has no default campaign: choose a campaign" });
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
  if (other) throw conflict("email", TAKEN.email(email));
}

async function checkReferralCode(tx: Tx, shopId: string, code: string, selfId?: string) {
  const other = await tx.affiliate.findFirst({
    where: { shopId, referralCode: code, ...(selfId ? { id: { not: selfId } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict("referral_code", TAKEN.referralCode(code));
}

async function checkCoupons(tx: Tx, shopId: string, codes: string[], selfId?: string) {
  if (!codes.length) return;
  const taken = await tx.coupon.findFirst({
    where: { shopId, code: { in: codes }, ...(selfId ? { affiliateId: { not: selfId } } : {}) },
    select: { code: true },
  });
  if (taken) throw conflict("coupon_codes", TAKEN.coupon(taken.code));
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

export async function generateReferralCode(
  tx: Tx,
  shopId: string,
  firstName: string,
  lastName: string,
): Promise<string> {
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
  throw new AppError("conflict", "Could not generate a free referral code; give one.", {
    fields: { referral_code: "Could not generate a free referral code; enter one" },
  });
}

/** Creates one affiliate of the shop, checking everything first; throws AppError on any problem. */
export async function insertAffiliate(
  tx: Tx,
  shopId: string,
  input: AffiliateCreate,
  source: "admin" | "api" | "import" | "flow" = "api",
) {
  const campaign = await requireCampaign(tx, shopId, input.campaign_id);
  if (input.parent_id) await checkUpline(tx, shopId, null, input.parent_id);
  await checkEmail(tx, shopId, input.email);
  if (input.referral_code) await checkReferralCode(tx, shopId, input.referral_code);
  await checkCoupons(tx, shopId, input.coupon_codes);
  const referralCode =
    input.referral_code ?? (await generateReferralCode(tx, shopId, input.first_name, input.last_name));
  const created = await tx.affiliate.create({
    data: {
      shopId,
      campaignId: campaign.id,
      parentId: input.parent_id,
      email: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      status: input.status ?? (campaign.autoApproveAffiliates ? "approved" : "pending"),
      referralCode,
      coupons: { create: input.coupon_codes.map((code) => ({ shopId, code, shopifyStatus: "pending" })) },
    },
    include: affiliateInclude,
  });
  if (input.coupon_codes.length) await queueCouponPush(tx, created.id);
  await emitEvent(tx, shopId, "affiliate.created", { affiliateId: created.id, status: created.status, source });
  return created;
}

/** Changes the given fields of one affiliate of the shop; another shop's id is not found. */
export async function patchAffiliate(tx: Tx, shopId: string, id: string, input: AffiliateUpdate) {
  const current = await tx.affiliate.findFirst({ where: { id, shopId }, select: { id: true, status: true } });
  if (!current) throw new AppError("not_found", "No affiliate with this id.");
  if (input.campaign_id) await requireCampaign(tx, shopId, input.campaign_id);
  if (input.parent_id) await checkUpline(tx, shopId, id, input.parent_id);
  if (input.email) await checkEmail(tx, shopId, input.email, id);
  if (input.referral_code) await checkReferralCode(tx, shopId, input.referral_code, id);
  // Codes kept keep their row (and what Shopify said of them); only new ones go to Shopify.
  let newCodes: string[] = [];
  if (input.coupon_codes) {
    await checkCoupons(tx, shopId, input.coupon_codes, id);
    const held = await tx.coupon.findMany({ where: { affiliateId: id }, select: { code: true } });
    const kept = new Set(held.map((c) => c.code).filter((code) => input.coupon_codes!.includes(code)));
    newCodes = input.coupon_codes.filter((code) => !kept.has(code));
    await tx.coupon.deleteMany({ where: { affiliateId: id, code: { notIn: [...kept] } } });
  }
  const updated = await tx.affiliate.update({
    where: { id },
    data: {
      campaignId: input.campaign_id,
      parentId: input.parent_id,
      email: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      status: input.status,
      referralCode: input.referral_code,
      ...(newCodes.length
        ? { coupons: { create: newCodes.map((code) => ({ shopId, code, shopifyStatus: "pending" })) } }
        : {}),
    },
    include: affiliateInclude,
  });
  if (newCodes.length) await queueCouponPush(tx, id);
  if (updated.status !== current.status) await emitStatusEvent(tx, shopId, id, updated.status);
  return updated;
}

/** affiliate.approved / affiliate.denied for a status change (other statuses announce nothing). */
export async function emitStatusEvent(tx: Tx, shopId: string, affiliateId: string, status: string) {
  if (status === "approved") await emitEvent(tx, shopId, "affiliate.approved", { affiliateId });
  else if (status === "denied") await emitEvent(tx, shopId, "affiliate.denied", { affiliateId });
}
