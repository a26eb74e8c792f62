import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { AppError } from "../../lib/errors";

// Login throttling, stored in the database so every app instance shares the
// count. Two limits: failures per account+address (stops guessing one
// password) and attempts per address (stops spraying many accounts).
let limiters: { perAccount: RateLimiterPrisma; perAddress: RateLimiterPrisma } | undefined;

function getLimiters() {
  limiters ??= {
    perAccount: new RateLimiterPrisma({
      storeClient: getDb(),
      keyPrefix: "login_fail",
      points: 5,
      duration: 15 * 60,
      blockDuration: 15 * 60,
      clearExpiredByTimeout: false,
    }),
    perAddress: new RateLimiterPrisma({
      storeClient: getDb(),
      keyPrefix: "login_ip",
      points: 50,
      duration: 15 * 60,
      clearExpiredByTimeout: false,
    }),
  };
  return limiters;
}

export function resetRateLimitersForTests() {
  limiters = undefined;
}

function accountKey(realm: string, email: string, ip: string) {
  return `${realm}:${email.toLowerCase()}:${ip}`;
}

function tooMany(res: RateLimiterRes): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError("rate_limited", `Too many login attempts. Try again in ${Math.ceil(seconds / 60)} minute(s).`, {
    headers: { "Retry-After": String(seconds) },
  });
}

/** Throws AppError(rate_limited) when this attempt must not be checked at all. */
export async function assertLoginAllowed(realm: string, email: string, ip: string) {
  const { perAccount, perAddress } = getLimiters();
  try {
    await perAddress.consume(`${realm}:${ip}`);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw tooMany(res);
    throw res;
  }
  const failures = await perAccount.get(accountKey(realm, email, ip));
  if (failures && failures.consumedPoints >= perAccount.points) throw tooMany(failures);
}

export async function recordLoginFailure(realm: string, email: string, ip: string) {
  try {
    await getLimiters().perAccount.consume(accountKey(realm, email, ip));
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
  }
}

export async function recordLoginSuccess(realm: string, email: string, ip: string) {
  await getLimiters().perAccount.delete(accountKey(realm, email, ip));
}

/** Client address as the app sees it; behind a proxy, set TRUST_PROXY=1. */
export function clientAddress(request: Request): string {
  if (getConfig().TRUST_PROXY) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get("x-app-remote-address") ?? "unknown";
}
