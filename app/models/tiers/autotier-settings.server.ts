import { z } from "zod";
import type { ShopDb } from "../../db/shop-db.server";
import type { Tx } from "../../db/transaction";
import { msg } from "../../i18n/messages";
import { parseDecimalInput } from "../../lib/decimal-input";
import { AppError, type FieldErrors } from "../../lib/errors";
import { currencyExponent } from "../../lib/money";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { ladderProblem, TIER_METRICS } from "./evaluate-tiers";
import { planShopTiers, readAutotierSettings, runShopTiers, scheduleTierEvaluation } from "./evaluate-tiers.server";
import { undoTierRun } from "./undo-tier-run.server";

// Settings › Autotier: the ladder, the switches, the preview of the next
// run, "apply now", the runs (each can be undone) and the latest moves.

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

/** "Apply now": the count the merchant confirmed, so a preview gone stale is not applied blind. */
export const autotierApplySchema = z.object({ intent: z.literal("apply_now"), expected: z.number().int().min(0) });
export const autotierUndoSchema = z.object({ intent: z.literal("undo_run"), runId: z.string().min(1).max(200) });
export const autotierActionSchema = z.discriminatedUnion("intent", [
  autotierSaveSchema,
  autotierApplySchema,
  autotierUndoSchema,
]);
export type AutotierAction = z.infer<typeof autotierActionSchema>;

const isMoney = (metric: string) => metric === "revenue" || metric === "commission";

const moveSelect = {
  id: true,
  affiliateId: true,
  fromCampaignId: true,
  toCampaignId: true,
  direction: true,
  reason: true,
  reasonKey: true,
  reasonValues: true,
  runId: true,
  undo: true,
  createdAt: true,
  affiliate: { select: { id: true, firstName: true, lastName: true, email: true } },
} as const;

/** When the nightly chain runs next (null: automatic moves are off or not yet scheduled). */
async function nextRunAt(db: ShopDb) {
  const job = await db.job.findFirst({
    where: { type: "tier.evaluate", status: "queued", uniqueKey: { startsWith: `tier.evaluate:${db.$shopId}:` } },
    orderBy: { runAt: "asc" },
    select: { runAt: true },
  });
  return job?.runAt ?? null;
}

export async function loadAutotier(db: ShopDb) {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, currency: true },
  });
  const [tiers, campaigns, moves, runs, plan, nextRun] = await Promise.all([
    db.tierRule.findMany({ orderBy: { position: "asc" } }),
    db.campaign.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db.tierMove.findMany({ orderBy: { createdAt: "desc" }, take: 50, select: moveSelect }),
    db.tierRun.findMany({ orderBy: { createdAt: "desc" }, take: 20 }),
    planShopTiers(db, db.$shopId),
    nextRunAt(db),
  ]);
  const exponent = currencyExponent(shop.currency);
  const show = (metric: string, v: number) => (isMoney(metric) ? (v / 10 ** exponent).toFixed(exponent) : String(v));
  const names = new Map(
    (
      await db.affiliate.findMany({
        where: { id: { in: plan.moves.slice(0, 200).map((m) => m.affiliateId) } },
        select: { id: true, firstName: true, lastName: true, email: true },
      })
    ).map((a) => [a.id, a]),
  );
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
    runs,
    nextRun,
    // The preview lists the first 200; the count is the whole run's.
    preview: {
      count: plan.moves.length,
      moves: plan.moves.slice(0, 200).map((m) => ({
        affiliateId: m.affiliateId,
        affiliate: names.get(m.affiliateId) ?? null,
        fromCampaignId: m.fromCampaignId,
        toCampaignId: m.toCampaignId,
        direction: m.direction,
        reasonKey: m.reasonKey,
        reasonValues: m.reasonValues,
      })),
    },
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
    // Saving moves nobody: the next run is the nightly one the page states
    // (or "apply now" after the preview).
    if (body.enabled) await scheduleTierEvaluation(tx, db.$shopId);
  });
  return { saved: true };
}

/** "Apply now": a run of the saved ladder, made only if it moves as many as the preview the merchant confirmed. */
export async function applyAutotierNow(db: ShopDb, expected: number) {
  return db.$transaction(async (tx: Tx) => {
    const plan = await planShopTiers(tx, db.$shopId);
    if (plan.moves.length !== expected)
      throw new AppError("conflict", msg("Settings:autotier.errors.previewChanged", { count: plan.moves.length }));
    if (expected === 0) throw new AppError("conflict", msg("Settings:autotier.errors.nothingToApply"));
    const run = await runShopTiers(tx, db.$shopId, "manual");
    return { applied: run.moves.length, runId: run.runId };
  });
}

export async function undoAutotierRun(db: ShopDb, runId: string, userId: string | null) {
  const report = await db.$transaction((tx: Tx) => undoTierRun(tx, db.$shopId, runId, userId));
  return { undone: report };
}

/** An affiliate's tier moves, newest first (the affiliate's page). */
export function listTierMoves(db: ShopDb, affiliateId: string) {
  return db.tierMove.findMany({ where: { affiliateId }, orderBy: { createdAt: "desc" }, take: 20 });
}
