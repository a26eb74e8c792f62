import type { ShopDb } from "../../db/shop-db.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { leakSettingsOf, MISSING_SIGNALS, type LeakSettings } from "./detect-leak";

// The Leaked codes screen (Sales › Leaked codes, ADR 051): the shop's flags,
// open ones first, each with its orders and the reason as key and values
// (worded on the page, ADR 043). And the affiliate's side: the holds on
// their own sales.

export const LEAK_PAGE = 50;

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export async function listLeakFlags(db: ShopDb) {
  const shopId = db.$shopId;
  const flags = await db.leakFlag.findMany({
    where: { shopId },
    orderBy: [{ openKey: { sort: "asc", nulls: "last" } }, { createdAt: "desc" }],
    take: LEAK_PAGE,
    select: {
      id: true,
      code: true,
      status: true,
      reasonKey: true,
      reasonValues: true,
      orderIds: true,
      newCode: true,
      rotation: true,
      rotationError: true,
      createdAt: true,
      decidedAt: true,
      affiliate: { select: { id: true, firstName: true, lastName: true, email: true } },
    },
  });
  // Open flags first (openKey is set only while open), then the newest.
  flags.sort((a, b) => Number(b.status === "open") - Number(a.status === "open"));
  const ids = [...new Set(flags.flatMap((f) => parse<string[]>(f.orderIds, [])))];
  const orders = ids.length
    ? await db.order.findMany({
        where: { shopId, id: { in: ids } },
        select: {
          id: true,
          name: true,
          placedAt: true,
          subtotal: true,
          currency: true,
          status: true,
          referringHost: true,
          leakHoldId: true,
        },
      })
    : [];
  const byId = new Map(orders.map((o) => [o.id, o]));
  return flags.map(({ orderIds, reasonValues, ...f }) => ({
    ...f,
    reasonValues: parse<Record<string, string | number>>(reasonValues, {}),
    missing: [...MISSING_SIGNALS],
    orders: parse<string[]>(orderIds, [])
      .map((id) => byId.get(id))
      .filter((o): o is NonNullable<typeof o> => Boolean(o))
      .sort((a, b) => b.placedAt.getTime() - a.placedAt.getTime()),
  }));
}

export type LeakFlagView = Awaited<ReturnType<typeof listLeakFlags>>[number];

/** The open holds on some of an affiliate's sales: order id → the flag's code. */
export async function holdsOnSales(db: ShopDb, affiliateId: string, holdIds: (string | null)[]) {
  const ids = [...new Set(holdIds.filter((id): id is string => Boolean(id)))];
  if (ids.length === 0) return new Map<string, string>();
  const flags = await db.leakFlag.findMany({
    where: { shopId: db.$shopId, affiliateId, id: { in: ids }, status: "open" },
    select: { id: true, code: true },
  });
  return new Map(flags.map((f) => [f.id, f.code]));
}

export async function loadLeakSettings(db: ShopDb): Promise<LeakSettings> {
  const shop = await db.shop.findUniqueOrThrow({ where: { id: db.$shopId }, select: { settings: true } });
  return leakSettingsOf(shop.settings);
}

export async function saveLeakSettings(db: ShopDb, settings: LeakSettings): Promise<LeakSettings> {
  await saveShopSetting(db, db.$shopId, "leakWatch", settings);
  return settings;
}
