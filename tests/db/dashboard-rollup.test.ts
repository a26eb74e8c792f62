import { describe, expect, it, onTestFinished, vi } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { DATE_PRESETS, presetRange, type DatePreset } from "~/lib/date-presets";
import { pick, randomInt, seededRandom } from "~/lib/prng";
import type { Db } from "~/db/client.server";
import { countPendingSales, getDashboardAnalytics } from "~/models/dashboard/dashboard-analytics.server";
import { COUNT_CAP, getDashboardData } from "~/models/dashboard/dashboard-totals.server";
import {
  LAG_MS,
  planRollup,
  refreshRollup,
  ROLLUP_SWEEP_JOB,
  runRollupSweep,
  STALE_MS,
} from "~/models/dashboard/rollup.server";
import { drainJobs } from "~/worker/job-registry.server";
import { reviewSale } from "~/models/orders/review-sale.server";
import { PAYABLE } from "~/models/payouts/payable-balance";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { recordingStatements } from "../support/recording-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// The rollup plus its live part must always equal a naive count over the
// rows, whatever the zone, preset, late rows and status changes.
applyTestEnv();
useTestDatabase();

const DAY = 86_400_000;
const STATUSES = ["pending", "approved", "denied", "paid", "void"] as const;
const LINE_STATUSES = ["pending", "approved", "denied", "paid", "void"] as const;

async function shopWithData(
  seed: number,
  timezone: string,
  now: Date,
  opts: { clicks: number; orders: number; stampedBefore: Date },
) {
  const db = getDb();
  const random = seededRandom(seed);
  const shop = await buildShop();
  await db.shop.update({ where: { id: shop.id }, data: { timezone } });
  const campaign = await buildCampaign(shop.id);
  const affiliates = [];
  for (let i = 0; i < 3; i++) affiliates.push(await buildAffiliate(shop.id, campaign.id));
  await addRows(
    shop.id,
    affiliates.map((a) => a.id),
    random,
    now,
    opts.clicks,
    opts.orders,
    opts.stampedBefore,
  );
  return { ...shop, timezone, affiliateIds: affiliates.map((a) => a.id) };
}

let serial = 0;
async function addRows(
  shopId: string,
  affiliateIds: string[],
  random: () => number,
  now: Date,
  clicks: number,
  orders: number,
  stamped: Date,
  clicksSince?: Date,
) {
  const db = getDb();
  // Orders are placed over 800 days back to a few hours ahead (late webhooks,
  // clock skew), with extra weight on the last days where the presets' edges
  // are. A click is stamped when it is recorded: after the watermark, only
  // new clicks arrive, and none is stamped after now (a click a few hours
  // ahead would fall after the "all" range's end, tomorrow, whenever the test
  // runs in the last hours of a UTC day).
  const when = () =>
    new Date(now.getTime() - (random() < 0.4 ? random() * 3 * DAY : random() * 800 * DAY) + DAY * 0.2 * random());
  const clickAt = () =>
    clicksSince
      ? new Date(clicksSince.getTime() + random() * (now.getTime() - clicksSince.getTime()))
      : new Date(Math.min(when().getTime(), now.getTime()));
  await db.click.createMany({
    data: Array.from({ length: clicks }, () => {
      const at = clickAt();
      return {
        shopId,
        affiliateId: pick(random, affiliateIds),
        clickId: `c${serial++}-${randomInt(random, 0, 1e9)}`,
        landingUrl: "https://x",
        createdAt: at,
      };
    }),
  });
  for (let i = 0; i < orders; i++) {
    const placedAt = when();
    const credited = random() < 0.8;
    const subtotal = randomInt(random, 100, 50_000);
    const order = await db.order.create({
      data: {
        shopId,
        shopifyGid: `gid://shopify/Order/${serial++}`,
        name: `#${serial}`,
        currency: "USD",
        subtotal,
        total: subtotal,
        refundedAmount: random() < 0.1 ? randomInt(random, 0, subtotal) : 0,
        status: pick(random, STATUSES),
        affiliateId: credited ? pick(random, affiliateIds) : null,
        placedAt,
        createdAt: stamped,
        updatedAt: stamped,
      },
    });
    if (!credited) continue;
    const lines = randomInt(random, 1, 3);
    await db.commission.createMany({
      data: Array.from({ length: lines }, (_, level) => ({
        shopId,
        orderId: order.id,
        affiliateId: affiliateIds[level % affiliateIds.length]!,
        level: level + 1,
        amount: randomInt(random, -500, 5000),
        currency: "USD",
        status: pick(random, LINE_STATUSES),
        createdAt: stamped,
        updatedAt: stamped,
      })),
    });
  }
}

async function naive(shopId: string, start: Date, end: Date) {
  const db = getDb();
  const clicks = await db.click.count({ where: { shopId, createdAt: { gte: start, lt: end } } });
  const orders = await db.order.findMany({
    where: {
      shopId,
      placedAt: { gte: start, lt: end },
      affiliateId: { not: null },
      status: { notIn: ["denied", "void"] },
    },
    include: { commissions: true },
  });
  return {
    clicks,
    sales: orders.length,
    revenue: orders.reduce((s, o) => s + o.subtotal - o.refundedAmount, 0),
    commission: orders.reduce(
      (s, o) =>
        s + o.commissions.filter((c) => c.status !== "denied" && c.status !== "void").reduce((t, c) => t + c.amount, 0),
      0,
    ),
    pendingSales: orders.filter((o) => o.status === "pending").length,
  };
}

async function expectExact(
  shop: { id: string; timezone: string },
  now: Date,
  presets: readonly DatePreset[] = DATE_PRESETS,
) {
  for (const preset of presets) {
    const got = await getDashboardAnalytics(shop, preset, now);
    const range = presetRange(preset, shop.timezone, now, preset === "all" ? new Date(0) : undefined);
    const want = await naive(shop.id, preset === "all" ? new Date(0) : range.start, range.end);
    expect({ preset, zone: shop.timezone, ...got.totals }).toEqual({ preset, zone: shop.timezone, ...want });
    if (preset === "all") {
      // All-time pending also counts orders stamped ahead of our clock.
      const allTime = await naive(shop.id, new Date(0), new Date(now.getTime() + 366 * DAY));
      expect(await countPendingSales(shop.id, getDb(), now), "pending, all time").toBe(allTime.pendingSales);
    }
    // The chart adds up to the tiles.
    const sum = got.series.reduce((s, p) => s + p.clicks, 0);
    expect(sum, `${preset} chart clicks`).toBe(got.totals.clicks);
  }
}

/** The client with a count of the statements sent through it (model calls and raw queries). */
function countingStatements(db: Db) {
  let statements = 0;
  const counted =
    <T extends object>(target: T) =>
    (fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      statements++;
      return fn.apply(target, args);
    };
  const client = new Proxy(db, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (prop === "$queryRawUnsafe" || prop === "$queryRaw") return counted(target)(value as () => unknown);
      if (typeof prop === "string" && /^[a-z]/.test(prop) && value && typeof value === "object")
        return new Proxy(value, {
          get: (model, method) => {
            const fn: unknown = Reflect.get(model, method);
            return typeof fn === "function" ? counted(model)(fn as () => unknown) : fn;
          },
        });
      return value;
    },
  });
  return { client, statements: () => statements };
}

describe("dashboard rollup", () => {
  // Zones with whole-hour DST, half-hour and 45-minute offsets, and UTC.
  const zones = ["America/New_York", "Asia/Kolkata", "Australia/Adelaide", "Asia/Kathmandu", "UTC"];

  it.each(zones.map((z, i) => [z, i]))("rollup + live part equals a naive count in %s", async (zone, i) => {
    const now = new Date(Date.UTC(2026, 2, 30, 13, 17) + Number(i) * 7 * DAY);
    const rolledAt = new Date(now.getTime() - 3 * 3_600_000);
    const shop = await shopWithData(100 + Number(i), zone as string, now, {
      clicks: 600,
      orders: 150,
      stampedBefore: new Date(rolledAt.getTime() - 3_600_000),
    });
    // Nothing rolled up yet: all live.
    await expectExact(shop, now, ["all", "today", "last7"]);
    await refreshRollup(getDb(), shop.id, rolledAt);
    // Local-day rows exist where local days are whole hour buckets.
    const days = await getDb().dashboardDay.count({ where: { shopId: shop.id } });
    expect(days > 0, `day rows in ${zone}`).toBe(zone === "America/New_York" || zone === "UTC");
    // Rows after the watermark, some orders placed long ago (a late webhook).
    const watermark = new Date(rolledAt.getTime() - LAG_MS);
    await addRows(
      shop.id,
      shop.affiliateIds,
      seededRandom(7 + Number(i)),
      now,
      80,
      30,
      new Date(now.getTime() - 60_000),
      watermark,
    );
    await expectExact(shop, now);
    await refreshRollup(getDb(), shop.id, now);
    await expectExact(shop, now);
  });

  it("counts outside the write: the refresh's write reads no click and no order, and only the bucket tables", async () => {
    const now = new Date();
    const shop = await shopWithData(41, "America/New_York", now, {
      clicks: 300,
      orders: 80,
      stampedBefore: new Date(now.getTime() - 2 * 3_600_000),
    });
    const plan = await planRollup(getDb(), shop.id, now);
    expect(plan).not.toBeNull();
    const seen: string[] = [];
    const written = await getDb().$transaction((tx) => plan!.write(recordingStatements(tx, seen)));
    expect(written).toBe(true);
    expect(seen.filter((s) => /"(Click|Order|Commission)"|^(click|order|commission)\./.test(s))).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    await expectExact(shop, now, ["all", "last7", "today"]);
  });

  it("writes one of two refreshes planned at the same time: the other finds the watermark moved and writes nothing", async () => {
    const db = getDb();
    const now = new Date();
    const shop = await shopWithData(42, "UTC", now, {
      clicks: 200,
      orders: 60,
      stampedBefore: new Date(now.getTime() - 2 * 3_600_000),
    });
    await refreshRollup(db, shop.id, new Date(now.getTime() - 30 * 60_000));
    // Both plans read the same watermark; the first write moves it.
    const first = await planRollup(db, shop.id, now);
    const second = await planRollup(db, shop.id, now);
    expect(await db.$transaction((tx) => first!.write(tx))).toBe(true);
    const buckets = await db.dashboardHour.findMany({ where: { shopId: shop.id }, orderBy: { hour: "asc" } });
    expect(await db.$transaction((tx) => second!.write(tx))).toBe(false);
    expect(await db.dashboardHour.findMany({ where: { shopId: shop.id }, orderBy: { hour: "asc" } })).toEqual(buckets);
    await expectExact(shop, now, ["all", "today"]);
    // Two first-ever refreshes race on creating the state row the same way.
    const fresh = await shopWithData(43, "UTC", now, { clicks: 50, orders: 20, stampedBefore: now });
    const a = await planRollup(db, fresh.id, now);
    const b = await planRollup(db, fresh.id, now);
    expect(await db.$transaction((tx) => a!.write(tx))).toBe(true);
    expect(await db.$transaction((tx) => b!.write(tx))).toBe(false);
    await expectExact(fresh, now, ["all"]);
  });

  // The second case pins the clock two minutes before midnight in Berlin: the
  // next refresh, five minutes on, reads a later shop day, whose "all" range
  // takes in orders placed in the next hours (this failed once in CI near
  // 23:00 UTC).
  it.each([
    ["at the current time", undefined],
    ["just before the shop's midnight", new Date("2026-11-30T22:58:00Z")],
  ])("reflects a status change made after the rollup, before and after the next refresh, %s", async (_, clock) => {
    if (clock) vi.useFakeTimers({ toFake: ["Date"], now: clock, shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const db = getDb();
    const now = new Date();
    const shop = await shopWithData(42, "Europe/Berlin", now, {
      clicks: 50,
      orders: 60,
      stampedBefore: new Date(now.getTime() - 2 * 3_600_000),
    });
    await refreshRollup(db, shop.id, now);
    const before = await getDashboardAnalytics(shop, "all", now);
    const pending = await db.order.findFirst({
      where: { shopId: shop.id, status: "pending", affiliateId: { not: null } },
      include: { commissions: true },
    });
    expect(pending).not.toBeNull();
    await reviewSale(shopDb(db, shop.id), pending!.id, "deny");
    const after = await getDashboardAnalytics(shop, "all", new Date());
    expect(after.totals.sales).toBe(before.totals.sales - 1);
    expect(after.totals.revenue).toBe(before.totals.revenue - (pending!.subtotal - pending!.refundedAmount));
    expect(after.totals.pendingSales).toBe(before.totals.pendingSales - 1);
    expect(await countPendingSales(shop.id)).toBe(after.totals.pendingSales);
    // Once the change is older than the lag, the refresh folds it into the
    // buckets: the totals read at that time are the same before and after.
    const later = new Date(Date.now() + 5 * 60_000);
    const unfolded = await getDashboardAnalytics(shop, "all", later);
    await refreshRollup(db, shop.id, later);
    const folded = await getDashboardAnalytics(shop, "all", later);
    expect(folded.totals).toEqual(unfolded.totals);
    await expectExact(shop, later, ["all", "last90", "lastYear"]);
  });

  it("stays exact with many orders changed after the rollup, over many hours and days (read in one statement each)", async () => {
    const db = getDb();
    const now = new Date();
    const shop = await shopWithData(77, "Asia/Kolkata", now, {
      clicks: 200,
      orders: 400,
      stampedBefore: new Date(now.getTime() - 2 * 3_600_000),
    });
    await refreshRollup(db, shop.id, now);
    // Every other pending order changes: dirty hours in many runs and days.
    const pending = await db.order.findMany({
      where: { shopId: shop.id, status: "pending", affiliateId: { not: null } },
      orderBy: { placedAt: "asc" },
      select: { id: true, placedAt: true },
    });
    const changed = pending.filter((_, i) => i % 2 === 0);
    const hours = new Set(changed.map((o) => Math.floor(o.placedAt.getTime() / 3_600_000)));
    expect(hours.size).toBeGreaterThan(20);
    for (const order of changed) await reviewSale(shopDb(db, shop.id), order.id, "deny");
    await expectExact(shop, new Date(), ["all", "last30", "last90", "lastYear", "monthToDate"]);
  });

  it("stays exact when the shop changes its time zone, and rebuilds the day rows in the new one", async () => {
    const db = getDb();
    const now = new Date();
    const shop = await shopWithData(9, "America/Los_Angeles", now, {
      clicks: 300,
      orders: 80,
      stampedBefore: new Date(now.getTime() - 3 * 3_600_000),
    });
    await refreshRollup(db, shop.id, now);
    await db.shop.update({ where: { id: shop.id }, data: { timezone: "Asia/Tokyo" } });
    const moved = { ...shop, timezone: "Asia/Tokyo" };
    await expectExact(moved, now, ["all", "last30", "yesterday"]);
    await refreshRollup(db, shop.id, new Date(now.getTime() + 5 * 60_000));
    expect((await db.dashboardRollupState.findUniqueOrThrow({ where: { shopId: shop.id } })).dayZone).toBe(
      "Asia/Tokyo",
    );
    await expectExact(moved, now, ["all", "last30", "yesterday"]);
  });

  it("is refreshed by the dashboard.rollup job the sweep queues for shops with activity, once per slot", async () => {
    const db = getDb();
    const now = new Date();
    const shop = await shopWithData(5, "Europe/Paris", now, {
      clicks: 30,
      orders: 10,
      stampedBefore: new Date(now.getTime() - 3_600_000),
    });
    const slot = Math.floor(now.getTime() / STALE_MS);
    // Two workers' sweeps of one slot queue the shop's refresh once, and the next sweep.
    expect(await db.$transaction((tx) => runRollupSweep({ slot }, tx, now))).toBe(1);
    expect(await db.$transaction((tx) => runRollupSweep({ slot }, tx, now))).toBe(1);
    expect(await db.job.count({ where: { type: "dashboard.rollup" } })).toBe(1);
    const next = await db.job.findMany({ where: { type: ROLLUP_SWEEP_JOB }, select: { runAt: true } });
    expect(next.map((j) => j.runAt.getTime())).toEqual([(slot + 1) * STALE_MS]);
    await drainJobs();
    const state = await db.dashboardRollupState.findUniqueOrThrow({ where: { shopId: shop.id } });
    expect(state.watermark.getTime()).toBeGreaterThan(now.getTime() - 2 * LAG_MS);
    expect(state.dayZone).toBe("Europe/Paris");
    // A fresh rollup is left alone.
    expect(await db.$transaction((tx) => runRollupSweep({ slot: slot + 1 }, tx, new Date()))).toBe(0);
    await expectExact(shop, new Date(), ["all", "today"]);
  });

  it("keeps each shop's figures to itself", async () => {
    const now = new Date();
    const a = await shopWithData(1, "UTC", now, {
      clicks: 40,
      orders: 20,
      stampedBefore: new Date(now.getTime() - 3 * 3_600_000),
    });
    const b = await shopWithData(2, "UTC", now, {
      clicks: 70,
      orders: 35,
      stampedBefore: new Date(now.getTime() - 3 * 3_600_000),
    });
    await refreshRollup(getDb(), a.id, now);
    await refreshRollup(getDb(), b.id, now);
    const fa = await getDashboardAnalytics(a, "all", now);
    const fb = await getDashboardAnalytics(b, "all", now);
    expect(fa.totals.clicks).toBe(await getDb().click.count({ where: { shopId: a.id } }));
    expect(fb.totals.clicks).toBe(await getDb().click.count({ where: { shopId: b.id } }));
    expect(await getDb().dashboardHour.count({ where: { shopId: a.id, clicks: { gt: 0 } } })).toBeGreaterThan(0);
    await expectExact(a, now, ["all"]);
    await expectExact(b, now, ["all"]);
  });

  it("gives the loader every figure in two statements, and counts only its own shop's rows", async () => {
    const db = getDb();
    const now = new Date();
    const shop = await shopWithData(31, "America/New_York", now, {
      clicks: 120,
      orders: 60,
      stampedBefore: new Date(now.getTime() - 2 * 3_600_000),
    });
    await refreshRollup(db, shop.id, now);
    // Orders changed after the rollup (dirty hours), pending affiliates, and
    // another shop whose rows must not count.
    const pending = await db.order.findMany({
      where: { shopId: shop.id, status: "pending", affiliateId: { not: null } },
      take: 2,
    });
    expect(pending.length).toBe(2);
    await reviewSale(shopDb(db, shop.id), pending[0]!.id, "approve");
    await reviewSale(shopDb(db, shop.id), pending[1]!.id, "deny");
    const campaign = await db.campaign.findFirstOrThrow({ where: { shopId: shop.id } });
    await buildAffiliate(shop.id, campaign.id, { status: "pending" });
    const other = await shopWithData(32, "UTC", now, {
      clicks: 30,
      orders: 20,
      stampedBefore: new Date(now.getTime() - 2 * 3_600_000),
    });
    const otherCampaign = await db.campaign.findFirstOrThrow({ where: { shopId: other.id } });
    await buildAffiliate(other.id, otherCampaign.id, { status: "pending" });
    await buildAffiliate(other.id, otherCampaign.id, { status: "pending" });
    await refreshRollup(db, other.id, now);

    const { client, statements } = countingStatements(db);
    const at = new Date();
    for (const preset of ["last30", "all", "today", "lastYear"] as const) {
      const before = statements();
      const data = await getDashboardData(shop, preset, at, client);
      expect(statements() - before, `${preset}: statements`).toBe(2);
      expect(data.analytics, preset).toEqual(await getDashboardAnalytics(shop, preset, at));
      expect(data.pending.sales, preset).toBe(await countPendingSales(shop.id, db, at));
    }
    await expectExact(shop, at, ["all", "last30"]);
    const data = await getDashboardData(shop, "last30", at);
    const state = await db.dashboardRollupState.findUniqueOrThrow({ where: { shopId: shop.id } });
    expect(data.watermark?.getTime()).toBe(state.watermark.getTime());
    expect(data.pending.affiliates).toBe(1);
    expect(data.pending.affiliates).toBe(await db.affiliate.count({ where: { shopId: shop.id, status: "pending" } }));
    const payable = await db.commission.count({ where: { shopId: shop.id, ...PAYABLE } });
    expect(payable).toBeGreaterThan(0);
    expect(data.pending.commissions).toBe(Math.min(payable, COUNT_CAP));
    expect(data.hasCampaigns).toBe(true);
    // A shop with nothing yet: no rollup, no campaign, nothing waiting.
    const empty = await buildShop();
    expect(await getDashboardData({ id: empty.id, timezone: "UTC" }, "last30", at)).toMatchObject({
      pending: { sales: 0, affiliates: 0, commissions: 0, commissionsMore: false },
      watermark: null,
      hasCampaigns: false,
      analytics: { totals: { clicks: 0, sales: 0, revenue: 0, commission: 0, pendingSales: 0 } },
    });
  });
});
