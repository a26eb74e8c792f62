import { RateLimiterRes, type RateLimiterPrisma } from "rate-limiter-flexible";
import { createRateLimiter } from "../../db/rate-limit-store.server";
import { AppError } from "../../lib/errors";
import { clientAddress as addressOf } from "../../lib/visitor-address.server";

// Login and sign-up throttling, stored in the database so every app
// instance shares the counts. For logins, three limits:
// - failures per account+address: stops guessing one password from one place;
// - attempts per address: stops one place spraying many accounts;
// - failures per account from any address: stops guessing spread over many
//   addresses (a botnet staying under the first limit at each). It can lock
//   an account out for the rest of the hour; that is the price of the cap,
//   and the message says so (a password reset is counted apart).
// Affiliate sign-ups are limited per address (10 in 10 minutes): each costs
// an Argon2 hash.
const HOUR = 60 * 60;

interface Limiters {
  perAccount: RateLimiterPrisma;
  perAddress: RateLimiterPrisma;
  perAccountAnywhere: RateLimiterPrisma;
  signupPerAddress: RateLimiterPrisma;
}
let limiters: Limiters | undefined;

function getLimiters(): Limiters {
  const limiter = (keyPrefix: string, points: number, duration: number, blockDuration = 0) =>
    createRateLimiter({ keyPrefix, points, duration, blockDuration });
  limiters ??= {
    perAccount: limiter("login_fail", 5, 15 * 60, 15 * 60),
    perAddress: limiter("login_ip", 50, 15 * 60),
    perAccountAnywhere: limiter("login_fail_any", 20, HOUR),
    // A burst guard rather than a daily quota: sign-ups through Shopify's app
    // proxy arrive from Shopify's addresses, shared by many visitors.
    signupPerAddress: limiter("signup_ip", 10, 10 * 60),
  };
  return limiters;
}

function accountKey(realm: string, email: string, ip: string) {
  return `${realm}:${email.toLowerCase()}:${ip}`;
}

const anywhereKey = (realm: string, email: string) => `${realm}:${email.toLowerCase()}`;

function tooMany(res: RateLimiterRes, message = "Too many login attempts."): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError("rate_limited", `${message} Try again in ${Math.ceil(seconds / 60)} minute(s).`, {
    headers: { "Retry-After": String(seconds) },
  });
}

/** Throws AppError(rate_limited) when this attempt must not be checked at all. */
export async function assertLoginAllowed(realm: string, email: string, ip: string) {
  const { perAccount, perAddress, perAccountAnywhere } = getLimiters();
  try {
    await perAddress.consume(`${realm}:${ip}`);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw tooMany(res);
    throw res;
  }
  const failures = await perAccount.get(accountKey(realm, email, ip));
  if (failures && failures.consumedPoints >= perAccount.points) throw tooMany(failures);
  const everywhere = await perAccountAnywhere.get(anywhereKey(realm, email));
  if (everywhere && everywhere.consumedPoints >= perAccountAnywhere.points)
    throw tooMany(everywhere, "Too many failed logins for this account. Reset the password, or wait.");
}

export async function recordLoginFailure(realm: string, email: string, ip: string) {
  const { perAccount, perAccountAnywhere } = getLimiters();
  for (const [limiter, key] of [
    [perAccount, accountKey(realm, email, ip)],
    [perAccountAnywhere, anywhereKey(realm, email)],
  ] as const) {
    try {
      await limiter.consume(key);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
    }
  }
}

export async function recordLoginSuccess(realm: string, email: string, ip: string) {
  // The any-address count stays: a login in between must not refill a guesser's budget.
  await getLimiters().perAccount.delete(accountKey(realm, email, ip));
}

/** Counts an affiliate sign-up from this address; throws AppError(rate_limited) past the limit. */
export async function consumeSignup(ip: string) {
  try {
    await getLimiters().signupPerAddress.consume(`signup:${ip}`);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw tooMany(res, "Too many sign-ups from your network.");
    throw res;
  }
}

/** Client address as the app sees it; behind a proxy, set TRUST_PROXY=1 (the last X-Forwarded-For entry). */
export function clientAddress(request: Request): string {
  return addressOf(request);
}
