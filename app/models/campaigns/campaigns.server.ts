import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { afterCursor, pageOrder, toPage } from "../pagination/cursor.server";
import type { CampaignStatus } from "./campaign-options";
import {
  campaignValueIssues,
  serializeCampaign,
  type CampaignCreate,
  type CampaignUpdate,
  type CouponSettings,
  type RenewalSettings,
} from "./campaign-schemas";
import type { Tx } from "../../db/transaction";

// Campaigns of a shop, for the REST API and the admin alike. Writes run in
// one transaction: the campaign, its levels and rules, and the shop's one
// default campaign.

export const campaignInclude = { levels: true, rules: true } as const;
const include = campaignInclude;

type Levels = NonNullable<CampaignUpdate["levels"]>;
type Rules = NonNullable<CampaignUpdate["rules"]>;

export const levelRows = (levels: Levels) => levels.map((l) => ({ level: l.level, basis: l.basis, rate: l.rate }));
export const ruleRows = (rules: Rules) =>
  rules.map((r) => ({
    targetType: r.target_type,
    targetGid: r.target_gid,
    targetTitle: r.target_title ?? null,
    targetImageUrl: r.target_image_url ?? null,
    kind: r.kind,
    commissionType: r.commission_type,
    // An exclusion earns nothing whatever value was sent.
    value: r.kind === "exclude" ? 0 : r.value,
  }));

function couponColumns(coupon: CouponSettings | undefined) {
  if (!coupon) return {};
  return {
    couponEnabled: coupon.enabled,
    couponDiscountType: coupon.discount_type,
    couponDiscountValue: coupon.discount_value,
    couponPrefix: coupon.prefix,
    couponOncePerCustomer: coupon.once_per_customer,
  };
}

function renewalColumns(renewals: RenewalSettings | undefined) {
  if (!renewals) return {};
  const counted = renewals.policy === "orders" || renewals.policy === "months";
  return {
    renewalPolicy: renewals.policy,
    renewalLimit: counted ? renewals.limit : null,
    renewalCommissionType: renewals.commission_type,
    renewalCommissionValue: renewals.commission_type ? renewals.commission_value : null,
  };
}

function columns(input: CampaignUpdate) {
  return {
    name: input.name,
    status: input.status,
    isDefault: input.is_default,
    commissionType: input.commission_type,
    commissionValue: input.commission_value,
    newCustomerValue: input.new_customer_value,
    cookieDays: input.cookie_days,
    autoApproveAffiliates: input.auto_approve_affiliates,
    autoApproveOrders: input.auto_approve_orders,
    approvalHoldDays: input.approval_hold_days,
    lifetimeCustomerLink: input.lifetime_customer_link,
    ...couponColumns(input.coupon),
    ...renewalColumns(input.renewals),
  };
}

/**
 * Makes `keepId` (or nobody yet, on create) the only default. The shop row is
 * written first: on PostgreSQL that row lock serializes concurrent default
 * changes of one shop, so two of them cannot both leave a default behind.
 */
async function clearOtherDefaults(tx: Tx, shopId: string, keepId?: string) {
  await tx.shop.update({ where: { id: shopId }, data: { updatedAt: new Date() } });
  await tx.campaign.updateMany({
    where: { shopId, isDefault: true, ...(keepId ? { id: { not: keepId } } : {}) },
    data: { isDefault: false },
  });
}

/** A page of the list (the REST API's query: limit, cursor, an optional status). */
export interface CampaignListQuery {
  limit: number;
  cursor?: string;
  status?: CampaignStatus;
}

export async function listCampaigns(db: ShopDb, query: CampaignListQuery) {
  const shopId = db.$shopId;
  const rows = await db.campaign.findMany({
    where: { shopId, ...(query.status ? { status: query.status } : {}), ...afterCursor(query.cursor) },
    orderBy: pageOrder,
    take: query.limit + 1,
    include,
  });
  return toPage(rows, query.limit, serializeCampaign);
}

export async function getCampaign(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  const row = await db.campaign.findFirst({ where: { id, shopId }, include });
  if (!row) throw new AppError("not_found", "No campaign with this id.");
  return serializeCampaign(row);
}

export async function createCampaign(db: ShopDb, input: CampaignCreate) {
  const shopId = db.$shopId;
  const row = await db.$transaction(async (tx) => {
    if (input.is_default) await clearOtherDefaults(tx, shopId);
    return tx.campaign.create({
      data: {
        ...columns(input),
        name: input.name,
        shopId,
        levels: { create: levelRows(input.levels) },
        rules: { create: ruleRows(input.rules) },
      },
      include,
    });
  });
  return serializeCampaign(row);
}

export const KEEP_DEFAULT_MESSAGE = "The shop needs a default campaign: make another campaign the default instead.";

export async function updateCampaign(db: ShopDb, id: string, input: CampaignUpdate) {
  const shopId = db.$shopId;
  const row = await db.$transaction(async (tx) => {
    const current = await tx.campaign.findFirst({ where: { id, shopId } });
    if (!current) throw new AppError("not_found", "No campaign with this id.");
    const fields = campaignValueIssues({
      commission_type: input.commission_type ?? current.commissionType,
      commission_value: input.commission_value ?? current.commissionValue,
      new_customer_value: input.new_customer_value === undefined ? current.newCustomerValue : input.new_customer_value,
    });
    // The default moves by making another campaign the default, never by
    // leaving the shop without one.
    if (current.isDefault && input.is_default === false) fields.is_default = KEEP_DEFAULT_MESSAGE;
    if (Object.keys(fields).length) throw new AppError("validation_failed", "Some fields are not valid.", { fields });
    if (input.is_default) await clearOtherDefaults(tx, shopId, id);
    if (input.levels) await tx.campaignLevel.deleteMany({ where: { campaignId: id } });
    if (input.rules) await tx.commissionRule.deleteMany({ where: { campaignId: id } });
    return tx.campaign.update({
      where: { id },
      data: {
        ...columns(input),
        ...(input.levels ? { levels: { create: levelRows(input.levels) } } : {}),
        ...(input.rules ? { rules: { create: ruleRows(input.rules) } } : {}),
      },
      include,
    });
  });
  return serializeCampaign(row);
}
