import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "../config.server";
import { errorForLog } from "../lib/log-text";
import { WEBHOOK_TOPICS } from "../models/webhooks/process-webhook.server";
import { isDatabaseBusy } from "../db/client.server";
import { createWebhookStore, DatabaseBusyError, type WebhookStore } from "../db/webhook-store.server";
import { checkWebhookShop, dbShopLookups, type ShopLookups } from "../models/webhooks/webhook-shop-check.server";
import { bodyLimitFor, refuseTooLarge } from "./body-limits";
import { verifyWebhook } from "./verify-webhook";
import { observeWebhook } from "../models/ops/metrics.server";
import { requestNotes } from "./request-log";

// POST /webhooks, served in front of Express and Remix: a store's webhook
// stream is the app's busiest input. The HMAC and the required headers are
// checked as shopify-api's `webhooks.validate` (what `authenticate.webhook`
// runs) checks them, by verify-webhook.ts, which a test holds to the
// library's answers; the shop the body names must be the header's
// (webhook-shop-check.server.ts: the headers are not signed); the event and
// its job are stored before the answer, and the job worker does the rest
// (docs/decisions/007 and 017). Body limits are the door's (body-limits.ts).

function reply(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

const fail = (res: ServerResponse, status: number, code: string, message: string) =>
  reply(res, status, { error: { code, message } });

/** The raw body, or null (after a 413) when it passes the webhook limit. */
function readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const limit = bodyLimitFor("/webhooks");
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit.maxBytes) return void chunks.push(chunk);
      // A chunked body past the limit (a declared one was refused at the
      // door): answer now; the door drops the rest once the answer is out.
      req.off("data", collect);
      refuseTooLarge(req, res, limit, false);
      resolve(null);
    };
    req.on("data", collect);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export function createWebhookHandler() {
  let store: WebhookStore | undefined;
  let lookups: ShopLookups | undefined;

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const rawBody = await readBody(req, res);
    if (rawBody === null) return;
    const check = verifyWebhook(getConfig().SHOPIFY_API_SECRET, rawBody, req.headers);
    if (!check.valid) {
      if (check.reason === "missing_headers")
        return fail(res, 400, "bad_request", `The webhook is missing headers: ${check.missingHeaders.join(", ")}`);
      if (check.reason === "missing_body") return fail(res, 400, "bad_request", "The webhook has no body.");
      return fail(res, 401, "unauthenticated", "The webhook signature does not match.");
    }
    const { topic, webhookId } = check;
    if (!(WEBHOOK_TOPICS as readonly string[]).includes(topic))
      return fail(res, 400, "bad_request", `Topic ${topic} is not handled by this app.`);
    if (webhookId.length > 200) return fail(res, 400, "bad_request", "X-Shopify-Webhook-Id is too long.");
    const shopDomain = check.domain.toLowerCase();
    requestNotes(req).shop = shopDomain;
    const text = rawBody.toString("utf8");
    lookups ??= dbShopLookups();
    const verdict = await checkWebhookShop(lookups, topic, shopDomain, text);
    if (!verdict.accept) {
      if (verdict.status === 200) {
        observeWebhook(topic, "ignored");
        return reply(res, 200, { ok: true, ignored: verdict.ignored });
      }
      return fail(res, 400, "bad_request", verdict.message);
    }
    // A store whose writer thread ended answered busy (503) for what it held; the next webhook gets a new one.
    if (!store || store.stopped()) store = createWebhookStore();
    const result = await store.store({ shopDomain, topic, webhookId, apiVersion: check.apiVersion, rawBody: text });
    observeWebhook(topic, result === "duplicate" ? "duplicate" : "stored");
    reply(res, 200, { ok: true, duplicate: result === "duplicate" });
  }

  return {
    /** Serves the request when it is a webhook; returns false otherwise. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.url?.split("?")[0] !== "/webhooks") return false;
      if (req.method !== "POST") {
        fail(res, 405, "method_not_allowed", "Webhooks are POSTed.");
        return true;
      }
      serve(req, res).catch((error) => {
        // The database could not take it in time (SQLite's lock, PostgreSQL's pool): not stored.
        if (error instanceof DatabaseBusyError || isDatabaseBusy(error)) {
          // Not stored, so not acknowledged: Shopify delivers it again.
          console.warn("[webhooks] database busy; answered 503 for a redelivery");
          if (!res.headersSent) res.setHeader("retry-after", "5");
          if (!res.headersSent) fail(res, 503, "busy", "The app is busy; please deliver this webhook again.");
          return;
        }
        console.error(`[webhooks] could not store a webhook: ${errorForLog(error)}`);
        if (!res.headersSent) fail(res, 500, "internal", "Something went wrong, please try again.");
      });
      return true;
    },
    close() {
      store?.close();
    },
  };
}
