import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { ingestWebhook } from "~/models/webhooks/ingest-webhook.server";
import { WEBHOOK_TOPICS } from "~/models/webhooks/process-webhook.server";
import { shopify } from "~/shopify.server";

// Every webhook topic arrives here (shopify.app.toml). The HMAC is checked by
// shopify-app-remix (401 when it does not match); the event is stored with
// its job before the answer, and processed by the job worker.
export async function action({ request }: ActionFunctionArgs) {
  const rawBody = await request.clone().text();
  const { shop } = await shopify().authenticate.webhook(request);
  const topic = request.headers.get("x-shopify-topic") ?? "";
  const webhookId = request.headers.get("x-shopify-webhook-id") ?? "";
  if (!(WEBHOOK_TOPICS as readonly string[]).includes(topic)) {
    return json({ error: { code: "bad_request", message: `Topic ${topic} is not handled by this app.` } }, { status: 400 });
  }
  if (!webhookId || webhookId.length > 200) {
    return json({ error: { code: "bad_request", message: "X-Shopify-Webhook-Id is missing." } }, { status: 400 });
  }
  const result = await ingestWebhook({ shopDomain: shop, topic, webhookId, apiVersion: request.headers.get("x-shopify-api-version"), rawBody });
  return json({ ok: true, duplicate: result === "duplicate" });
}

export function loader() {
  return json({ error: { code: "bad_request", message: "Webhooks are POSTed." } }, { status: 405 });
}
