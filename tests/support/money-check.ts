import { afterEach, expect } from "vitest";
import { getDb } from "~/db.server";
import { checkMoneyInvariants } from "~/models/payouts/money-invariants.server";

/**
 * The money invariant checker after every test of the file (issue 25):
 * whatever a test did to commissions, payouts and rewards, the books must
 * still hold. Register after useTestDatabase.
 */
export function useMoneyCheck() {
  afterEach(async () => {
    const violations = await checkMoneyInvariants(getDb());
    expect(violations, `money invariants: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  });
}
