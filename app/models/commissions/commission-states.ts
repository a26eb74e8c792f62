import { stateTable } from "../../lib/state-table";

// The states of a commission line and who moves it (issue 25). Pure: the
// writers (a sale's review, automatic approval, a cancelled order, bonus
// review, a payout settling) ask this table for the states a change may
// start from, and name them in the write (UPDATE ... WHERE status IN ...),
// so a line another writer moved first is not moved again, and only the
// lines a writer actually moved are announced.
//
// pending   earned, waiting for approval (a hold, or the merchant)
// approved  payable: the next payout gathers it
// denied    not paid (the merchant's decision, final)
// paid      in a paid payout (only a payout settling makes a line paid)
// void      the order was cancelled before the line was sent (final)
//
// Money already sent (a line in a paid payout, or in one on its way) is
// never voided: a cancellation or refund adds a negative line instead, which
// the next payout deducts.

export const COMMISSION_STATUSES = ["pending", "approved", "denied", "paid", "void"] as const;

const TABLE = stateTable(COMMISSION_STATUSES, {
  pending: ["approved", "denied", "void"],
  approved: ["paid", "void"],
  denied: [],
  paid: [],
  void: [],
});

export const canCommissionTransition = TABLE.can;
/** The states a line may enter `to` from: the guard of the write. */
export const commissionFromStates = TABLE.fromStates;

/**
 * Whether a cancelled order voids this line (true) or leaves it and claws it
 * back with a negative line (false): a line is voided only while its money
 * has not left, that is while it is in no payout or in a pending one.
 */
export function voidsOnCancel(line: { status: string; payoutStatus: string | null }): boolean {
  if (line.status === "pending") return true;
  return line.status === "approved" && (line.payoutStatus === null || line.payoutStatus === "pending");
}
