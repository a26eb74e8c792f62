import { RateLimiterRes, type RateLimiterPrisma } from "rate-limiter-flexible";
import { createRateLimiter } from "../../db/rate-limit-store.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";

// The Notifications editor's renders (check on save, live preview, test
// e-mail) are counted per shop, in the shared limiter table, so one shop
// cannot keep the template threads (template-threads.server.ts) busy for
// every other. The preview follows typing after a pause: about one a second
// at most from a person, well inside the limit.
const limits = {
  // Checks, previews and test e-mails: 120 a minute per shop.
  render: { points: 120, duration: 60 },
  // Test e-mails (each also an e-mail sent): 20 an hour per shop.
  testEmail: { points: 20, duration: 60 * 60 },
} as const;

let limiters: Record<keyof typeof limits, RateLimiterPrisma> | undefined;

function getLimiters() {
  limiters ??= {
    render: createRateLimiter({ keyPrefix: "template_render", ...limits.render }),
    testEmail: createRateLimiter({ keyPrefix: "template_test_email", ...limits.testEmail }),
  };
  return limiters;
}

/** Counts one; throws AppError(rate_limited) with Retry-After past the limit. */
export async function consumeTemplateRenders(kind: keyof typeof limits, shopId: string): Promise<void> {
  try {
    await getLimiters()[kind].consume(shopId);
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    throw new AppError("rate_limited", msg("Mails:editor.tooMany"), { headers: { "Retry-After": String(seconds) } });
  }
}
