import type { ShopDb } from "../../db/shop-db.server";
import { AppError } from "../../lib/errors";
import { afterCursor, pageOrder, toPage } from "../pagination/cursor.server";
import { getSaleDetail } from "../sales/sale-detail.server";
import type { ClaimStatus } from "./claim-input";

// What the merchant sees of claims: a list per status (open, approved,
// declined), newest first, paged on the server by keyset cursor; the count of
// open claims (the Sales screen's badge); and one claim with the order it
// found, that order's own attribution trail (the sale screen's data) and who
// the order is credited to now.

export const CLAIMS_PAGE = 25;

const nameOf = (a: { firstName: string; lastName: string }) => `${a.firstName} ${a.lastName}`.trim();

export async function listClaims(db: ShopDb, status: ClaimStatus, cursor?: string) {
  const shopId = db.$shopId;
  const rows = await db.orderClaim.findMany({
    where: { shopId, status, ...afterCursor(cursor) },
    orderBy: pageOrder,
    take: CLAIMS_PAGE + 1,
    include: {
      affiliate: { select: { id: true, firstName: true, lastName: true, referralCode: true } },
      order: { select: { id: true, name: true, total: true, currency: true, affiliateId: true } },
    },
  });
  return toPage(rows, CLAIMS_PAGE, (r) => ({
    id: r.id,
    status: r.status,
    method: r.method,
    orderNumber: r.orderNumber,
    orderDay: r.orderDay,
    amount: r.amount,
    currency: r.currency,
    createdAt: r.createdAt.toISOString(),
    affiliate: { id: r.affiliate.id, name: nameOf(r.affiliate), code: r.affiliate.referralCode },
    order: r.order
      ? {
          id: r.order.id,
          name: r.order.name,
          total: r.order.total,
          currency: r.order.currency,
          credited: r.order.affiliateId !== null,
        }
      : null,
  }));
}

/** Open claims per tab's badge. */
export async function claimCounts(db: ShopDb) {
  const rows = await db.orderClaim.groupBy({
    by: ["status"],
    where: { shopId: db.$shopId },
    _count: { _all: true },
  });
  const count = (s: ClaimStatus) => rows.find((r) => r.status === s)?._count._all ?? 0;
  return { open: count("open"), approved: count("approved"), declined: count("declined") };
}

export async function getClaim(db: ShopDb, id: string) {
  const shopId = db.$shopId;
  const claim = await db.orderClaim.findFirst({
    where: { id, shopId },
    include: { affiliate: { select: { id: true, firstName: true, lastName: true, referralCode: true, status: true } } },
  });
  if (!claim) throw new AppError("not_found", "No claim with this id.");
  const sale = claim.orderId ? await getSaleDetail(db, claim.orderId).catch(() => null) : null;
  return {
    id: claim.id,
    status: claim.status,
    method: claim.method,
    orderNumber: claim.orderNumber,
    orderDay: claim.orderDay,
    amount: claim.amount,
    currency: claim.currency,
    message: claim.message,
    createdAt: claim.createdAt.toISOString(),
    decidedAt: claim.decidedAt?.toISOString() ?? null,
    decidedBy: claim.decidedBy,
    declineNote: claim.declineNote,
    affiliate: {
      id: claim.affiliate.id,
      name: nameOf(claim.affiliate),
      code: claim.affiliate.referralCode,
      status: claim.affiliate.status,
    },
    sale,
    // Approve is offered only where it can succeed; the action checks again.
    canApprove:
      claim.status === "open" &&
      sale !== null &&
      sale.attribution.affiliate === null &&
      sale.status !== "void" &&
      sale.status !== "denied" &&
      sale.refundedAmount === 0 &&
      sale.cancelledAt === null &&
      claim.affiliate.status === "approved",
  };
}

export type ClaimDetail = Awaited<ReturnType<typeof getClaim>>;
