import { z } from "zod";
import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { parseDecimalInput } from "../../lib/decimal-input";
import { AppError, type FieldErrors } from "../../lib/errors";
import { currencyExponent } from "../../lib/money";
import { enqueueJob } from "../jobs/enqueue.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { ladderProblem, TIER_METRICS } from "./evaluate-tiers";
import { readAutotierSettings, scheduleTierEvaluation } from "./evaluate-tiers.server";

// Settings › Autotier: the ladder, the switches, and the latest moves.

export const MAX_TIERS = 10;

export const autotierSaveSchema = z.object({
  intent: z.literal("save_autotier"),
  enabled: z.boolean(),
  allowDemotion: z.boolean(),
  tiers: z
    .array(
      z.object({
        campaignId: z.string().min(1, msg("Settings:autotier.errors.campaign")).max(200),
        metric: z.enum(TIER_METRICS),
        threshold: z.string().max(40),
        windowDays: z.string().max(10),
      }),
    )
    .max(MAX_TIERS),
});
export type AutotierSave = z.infer<typeof autotierSaveSchema>;

const isMoney = (metric: string) => metric === "revenue" || metric === "commission";

export async function loadAutotier(db: ShopDb) {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, currency: true },
  });
  const [tiers, campaigns, moves] = await Promise.all([
    db.tierRule.findMany({ orderBy: { position: "asc" } }),
    db.campaign.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db.tierMove.findMany({
      orderBy: { createdAt: "desc" },
      take: 50,
      include: { affiliate: { select: { id: true, firstName: true, lastName: true, email: true } } },
    }),
  ]);
  const exponent = currencyExponent(shop.currency);
  const show = (metric: string, v: number) => (isMoney(metric) ? (v / 10 ** exponent).toFixed(exponent) : String(v));
  return {
    settings: readAutotierSettings(shop.settings),
    tiers: tiers.map((t) => ({
      campaignId: t.campaignId,
      metric: t.metric,
      threshold: show(t.metric, t.threshold),
      windowDays: String(t.windowDays),
    })),
    campaigns,
    moves,
  };
}

export async function saveAutotier(db: ShopDb, body: AutotierSave) {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, currency: true },
  });
  const exponent = currencyExponent(shop.currency);
  const fields: FieldErrors = {};
  const rows = body.tiers.map((t, i) => {
    const threshold = isMoney(t.metric)
      ? parseDecimalInput(t.threshold, exponent, 10_000_000_000)
      : parseDecimalInput(t.threshold, 0, 10_000_000);
    if (!threshold.ok) fields[`tiers.${i}.threshold`] = threshold.message;
    const windowDays =
      t.windowDays.trim() === "" ? { ok: true as const, value: 0 } : parseDecimalInput(t.windowDays, 0, 3650);
    if (!windowDays.ok) fields[`tiers.${i}.windowDays`] = windowDays.message;
    return {
      position: i + 1,
      campaignId: t.campaignId,
      metric: t.metric,
      threshold: threshold.ok ? threshold.value : 0,
      windowDays: windowDays.ok ? windowDays.value : 0,
    };
  });
  const problem = ladderProblem(rows);
  if (problem) fields.tiers = problem;
  if (body.enabled && rows.length < 2) fields.tiers = msg("Settings:autotier.errors.twoTiers");
  const known = new Set((await db.campaign.findMany({ select: { id: true } })).map((c) => c.id));
  rows.forEach((r, i) => {
    if (!known.has(r.campaignId)) fields[`tiers.${i}.campaignId`] = msg("Settings:autotier.errors.campaign");
  });
  if (Object.keys(fields).length) throw new AppError("validation_failed", "Some fields are not valid.", { fields });

  await db.$transaction(async (tx: Tx) => {
    await tx.tierRule.deleteMany({ where: { shopId: db.$shopId } });
    await tx.tierRule.createMany({ data: rows.map((r) => ({ ...r, shopId: db.$shopId })) });
    await saveShopSetting(tx, db.$shopId, "autotier", { enabled: body.enabled, allowDemotion: body.allowDemotion });
    if (body.enabled) {
      await enqueueJob(tx, "tier.evaluate", { shopId: db.$shopId });
      await scheduleTierEvaluation(tx, db.$shopId);
    }
  });
  return { saved: true };
}

/** An affiliate's tier moves, newest first (the affiliate's page). */
export function listTierMoves(db: ShopDb, affiliateId: string) {
  return db.tierMove.findMany({ where: { affiliateId }, orderBy: { createdAt: "desc" }, take: 20 });
}
