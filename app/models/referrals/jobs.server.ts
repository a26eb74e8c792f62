import type { z } from "zod";
import type { Db } from "../../db/client.server";
import type { JOB_PAYLOADS } from "../jobs/job-payloads";
import { runFriendCodeJob, runWithdrawJob } from "./friend-codes.server";

// SCAFFOLD (session 3, being built in parallel branches): each refer-a-friend
// job's handler replaces its line here. A job of a type not built yet fails
// loudly instead of pretending to have done its work.
type P<N extends keyof typeof JOB_PAYLOADS> = z.output<(typeof JOB_PAYLOADS)[N]>;
const notBuilt = (name: string) => Promise.reject(new Error(`${name}: not built yet`));

export const order = (_db: Db, _p: P<"referrals.order">) => notBuilt("referrals.order");
export const orderAdjusted = (_db: Db, _p: P<"referrals.order-adjusted">) => notBuilt("referrals.order-adjusted");
export const friendCode = (db: Db, p: P<"referrals.friend-code">) => runFriendCodeJob(db, p);
export const reward = (_db: Db, _p: P<"referrals.reward">) => notBuilt("referrals.reward");
export const withdraw = (db: Db, p: P<"referrals.withdraw">) => runWithdrawJob(db, p);
