import type { z } from "zod";
import type { Db } from "../../db/client.server";
import type { JOB_PAYLOADS } from "../jobs/job-payloads";
import { issueReferralReward } from "./issue-referral-reward.server";

// SCAFFOLD (session 3, being built in parallel branches): each refer-a-friend
// job's handler replaces its line here. A job of a type not built yet fails
// loudly instead of pretending to have done its work.
type P<N extends keyof typeof JOB_PAYLOADS> = z.output<(typeof JOB_PAYLOADS)[N]>;
const notBuilt = (name: string) => Promise.reject(new Error(`${name}: not built yet`));

export { recordReferralOrder as order } from "./record-referral.server";
export { adjustReferralOrder as orderAdjusted } from "./adjust-referral.server";
export const friendCode = (_db: Db, _p: P<"referrals.friend-code">) => notBuilt("referrals.friend-code");
export const reward = async (db: Db, p: P<"referrals.reward">) => {
  await issueReferralReward(db, p.referralId);
};
export const withdraw = (_db: Db, _p: P<"referrals.withdraw">) => notBuilt("referrals.withdraw");
