import type { z } from "zod";
import type { Db } from "../../db/client.server";
import type { JOB_PAYLOADS } from "../jobs/job-payloads";
import { runFriendCodeJob, runWithdrawJob } from "./friend-codes.server";
import { issueReferralReward } from "./issue-referral-reward.server";

// The refer-a-friend job handlers, by job type (registered in
// app/worker/job-registry.server.ts).
type P<N extends keyof typeof JOB_PAYLOADS> = z.output<(typeof JOB_PAYLOADS)[N]>;

export { recordReferralOrder as order } from "./record-referral.server";
export { adjustReferralOrder as orderAdjusted } from "./adjust-referral.server";
export const friendCode = (db: Db, p: P<"referrals.friend-code">) => runFriendCodeJob(db, p);
export const reward = async (db: Db, p: P<"referrals.reward">) => {
  await issueReferralReward(db, p.referralId);
};
export const withdraw = (db: Db, p: P<"referrals.withdraw">) => runWithdrawJob(db, p);
