import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";

// The MLM network (Affiliate.parentId) for Settings › Networks and the
// affiliate's page: one level of a subtree at a time (the browser asks for
// the next level when a member is opened), each member with their own sales
// and the commission their sales generated for their uplines, all gathered
// with grouped queries over the page's members, never one query per member.

export const NETWORK_PAGE = 50;
const MAX_DEPTH = 20;

export interface NetworkMember {
  id: string;
  name: string;
  email: string;
  status: string;
  campaignName: string;
  recruits: number;
  sales: number;
  /** Upline commission (levels 2+) earned on this member's sales, per currency. */
  generatedUpward: { currency: string; amount: number }[];
}

const MEMBER = {
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  status: true,
  campaign: { select: { name: true } },
} as const;

async function describe(
  db: ShopDb,
  rows: {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    status: string;
    campaign: { name: string };
  }[],
) {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const [recruits, sales] = await Promise.all([
    db.affiliate.groupBy({ by: ["parentId"], where: { parentId: { in: ids } }, _count: { _all: true } }),
    db.order.groupBy({
      by: ["affiliateId"],
      where: { affiliateId: { in: ids }, status: { notIn: ["denied", "void"] } },
      _count: { _all: true },
    }),
  ]);
  // Upward commission per member, through the order that earned it; bounded
  // to the page's members.
  const perMember = await db.commission.findMany({
    where: { level: { gte: 2 }, status: { notIn: ["denied", "void"] }, order: { affiliateId: { in: ids } } },
    select: { amount: true, currency: true, order: { select: { affiliateId: true } } },
    take: 50_000,
  });
  const up = new Map<string, Map<string, number>>();
  for (const c of perMember) {
    const member = c.order?.affiliateId;
    if (!member) continue;
    const byCurrency = up.get(member) ?? new Map<string, number>();
    byCurrency.set(c.currency, (byCurrency.get(c.currency) ?? 0) + c.amount);
    up.set(member, byCurrency);
  }
  const recruitsOf = new Map(recruits.map((r) => [r.parentId, r._count._all]));
  const salesOf = new Map(sales.map((s) => [s.affiliateId, s._count._all]));
  return rows.map((r): NetworkMember => ({
    id: r.id,
    name: `${r.firstName} ${r.lastName}`.trim(),
    email: r.email,
    status: r.status,
    campaignName: r.campaign.name,
    recruits: recruitsOf.get(r.id) ?? 0,
    sales: salesOf.get(r.id) ?? 0,
    generatedUpward: [...(up.get(r.id) ?? new Map<string, number>())].map(([currency, amount]) => ({
      currency,
      amount,
    })),
  }));
}

/**
 * One page of a level: the recruits of `parentId`, or (null) the top of the
 * network: affiliates with recruits and no upline. Keyset-paged by id.
 */
export async function networkLevel(db: ShopDb, parentId: string | null, after: string | null = null) {
  const rows = await db.affiliate.findMany({
    where: {
      ...(parentId ? { parentId } : { parentId: null, recruits: { some: {} } }),
      ...(after ? { id: { gt: after } } : {}),
    },
    select: MEMBER,
    orderBy: { id: "asc" },
    take: NETWORK_PAGE + 1,
  });
  const page = rows.slice(0, NETWORK_PAGE);
  return { members: await describe(db, page), after: rows.length > NETWORK_PAGE ? page[page.length - 1]!.id : null };
}

/** One page of an affiliate's recruits, for the affiliate's page; an id not in the shop is not found. */
export async function affiliateDownline(db: ShopDb, affiliateId: string, after: string | null = null) {
  const known = await db.affiliate.findUnique({ where: { id: affiliateId }, select: { id: true } });
  if (!known) throw new AppError("not_found", "No affiliate with this id.");
  return networkLevel(db, affiliateId, after);
}

/** The uplines of an affiliate, nearest first (level 2, 3, ...). */
export async function uplinesOf(db: ShopDb, affiliateId: string) {
  const chain: { id: string; name: string; level: number }[] = [];
  let current = await db.affiliate.findUnique({ where: { id: affiliateId }, select: { parentId: true } });
  const seen = new Set([affiliateId]);
  while (current?.parentId && chain.length < MAX_DEPTH && !seen.has(current.parentId)) {
    seen.add(current.parentId);
    const parent = await db.affiliate.findUnique({
      where: { id: current.parentId },
      select: { id: true, firstName: true, lastName: true, parentId: true },
    });
    if (!parent) break;
    chain.push({ id: parent.id, name: `${parent.firstName} ${parent.lastName}`.trim(), level: chain.length + 2 });
    current = parent;
  }
  return chain;
}

/** Members matching a name or e-mail, each with their uplines (where they sit in the tree). */
export async function searchNetwork(db: ShopDb, q: string) {
  const term = q.trim();
  const rows = await db.affiliate.findMany({
    where: {
      OR: [{ email: { contains: term } }, { firstName: { contains: term } }, { lastName: { contains: term } }],
    },
    select: MEMBER,
    orderBy: { id: "asc" },
    take: 20,
  });
  const members = await describe(db, rows);
  return Promise.all(members.map(async (m) => ({ ...m, uplines: await uplinesOf(db, m.id) })));
}

/** The campaigns with their level setup, to explain the tree next to it. */
export function campaignLevels(db: ShopDb) {
  return db.campaign.findMany({
    select: {
      id: true,
      name: true,
      levels: { select: { level: true, basis: true, rate: true }, orderBy: { level: "asc" } },
    },
    orderBy: { name: "asc" },
  });
}
