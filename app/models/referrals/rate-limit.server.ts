import { RateLimiterRes, type RateLimiterPrisma } from "rate-limiter-flexible";
import { createRateLimiter } from "../../db/rate-limit-store.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";

// The storefront's refer-a-friend endpoints are open to every visitor, so
// each call that makes something (an advocate, a single-use code in
// Shopify) is counted per visitor address (kept in the shared limiter table
// as a keyed hash, never the address). The limits are burst guards: behind
// Shopify's app proxy many visitors may share an address.
const limits = {
  // Advocate look-ups and sign-ups: 20 e-mails per address in 10 minutes.
  advocate: { points: 20, duration: 10 * 60 },
  // Single-use friend codes asked for (unique mode): 30 per address per hour.
  friendCode: { points: 30, duration: 60 * 60 },
} as const;

let limiters: Record<keyof typeof limits, RateLimiterPrisma> | undefined;

function getLimiters() {
  limiters ??= Object.fromEntries(
    Object.entries(limits).map(([name, l]) => [
      name,
      createRateLimiter({ keyPrefix: `referral_${name}`, points: l.points, duration: l.duration }),
    ]),
  ) as Record<keyof typeof limits, RateLimiterPrisma>;
  return limiters;
}

/** Counts one call; throws AppError(rate_limited) past the limit. */
export async function consumeReferralLimit(kind: keyof typeof limits, key: string): Promise<void> {
  try {
    await getLimiters()[kind].consume(key);
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    throw new AppError("rate_limited", msg("Account.Common:referFriend.widget.errors.rateLimited"), {
      headers: { "Retry-After": String(seconds) },
    });
  }
}
