import type { ShopDb } from "../../db/shop-db.server";
import { keysetCsvStream } from "../csv/keyset-csv-stream.server";
import { decimalAmount } from "../payouts/csv/payout-csv-format";
import { maskEmail } from "./mask-email";
import { referralWhere, type ReferralFilter } from "./referral-history.server";
import { rewardAmount } from "./referral-view";

// CSV export of the referral history with the list's filters, newest first,
// streamed in keyset pages (csv/keyset-csv-stream) so memory stays bounded however many
// referrals a shop has. The friend's e-mail is masked as on the screen (the
// file travels further than the screen). Dates are ISO 8601 UTC; amounts
// plain decimals next to their currency (or "%" for a percentage code).

export const REFERRAL_CSV_HEADER = [
  "id",
  "created_at",
  "order",
  "advocate_email",
  "friend_email",
  "status",
  "source",
  "reward_kind",
  "reward_amount",
  "reward_unit",
  "reward_code",
  "hold_until",
  "rewarded_at",
  "blocked_rule",
];

const select = {
  id: true,
  createdAt: true,
  orderName: true,
  friendEmail: true,
  status: true,
  source: true,
  rewardKind: true,
  rewardValue: true,
  rewardCurrency: true,
  rewardCode: true,
  holdUntil: true,
  rewardedAt: true,
  blockedRule: true,
  advocate: { select: { email: true } },
} as const;

export function exportReferralsCsv(db: ShopDb, timeZone: string, filter: ReferralFilter) {
  let where: Awaited<ReturnType<typeof referralWhere>> | null = null;
  return keysetCsvStream({
    header: REFERRAL_CSV_HEADER,
    page: async (after, take) => {
      where ??= await referralWhere(db, timeZone, filter);
      return db.referral.findMany({
        where: after ? { AND: [where, after] } : where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take,
        select,
      });
    },
    line: (row) => {
      const reward = rewardAmount(row);
      return [
        row.id,
        row.createdAt.toISOString(),
        row.orderName,
        row.advocate.email,
        maskEmail(row.friendEmail),
        row.status,
        row.source,
        row.rewardKind,
        reward.type === "percent"
          ? (reward.basisPoints / 100).toFixed(2)
          : decimalAmount(reward.amount, reward.currency),
        reward.type === "percent" ? "%" : reward.currency,
        row.rewardCode,
        row.holdUntil.toISOString(),
        row.rewardedAt?.toISOString() ?? "",
        row.blockedRule,
      ];
    },
  });
}
