// `npm run simulate -- <command> [options]`: a store simulator. Sends signed
// Shopify webhooks (the real payload shapes) to a running app, so the whole
// flow can be tried without a store.
//
//   order   [--code CODE] [--click CLICK_ID] [--coupon CODE] [--email E] [--customer ID]
//           [--amount 49.99] [--items 2]           an orders/create webhook
//   refund  [--order ID|last] [--lines 1]          refunds/create for the first N lines
//   cancel  [--order ID|last]                      orders/cancelled
//   proxy-url [--path /signup]                     prints a signed app proxy URL
//           (what Shopify calls for https://{shop}/apps/affiliate{path}; valid 90 s)
//
//   --url http://localhost:3000   the app (default: PORT of this machine)
//   --shop demo-store.myshopify.com   (default: DEMO_SHOP)
//   the webhook secret is SHOPIFY_API_SECRET (or the generated one in data/secrets.json)
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadEnvironment } from "./bootstrap";
import { sampleOrder, sampleRefund, type SampleLine } from "../models/shopify/sample-payloads";
import { signedProxyUrl } from "../models/shopify/app-proxy-signature";

interface SentOrder {
  orderId: string;
  email: string;
  lines: { id: string; price: string; quantity: number; title: string }[];
  sentAt: string;
}

async function main() {
  const { dataDir, secrets } = loadEnvironment();
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: "string" },
      shop: { type: "string" },
      code: { type: "string" },
      click: { type: "string" },
      coupon: { type: "string" },
      email: { type: "string" },
      customer: { type: "string" },
      amount: { type: "string" },
      items: { type: "string" },
      order: { type: "string" },
      lines: { type: "string" },
      path: { type: "string" },
    },
  });
  const command = positionals[0];
  const url = (values.url ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
  const shop = values.shop ?? process.env.DEMO_SHOP ?? "demo-store.myshopify.com";
  const secret = secrets.values.SHOPIFY_API_SECRET;
  const logFile = path.join(dataDir, "simulated-orders.json");
  const log: SentOrder[] = existsSync(logFile) ? JSON.parse(readFileSync(logFile, "utf8")) : [];

  const send = async (topic: string, body: string) => {
    const response = await fetch(`${url}/webhooks`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": topic,
        "x-shopify-shop-domain": shop,
        "x-shopify-api-version": "2026-07",
        "x-shopify-webhook-id": randomUUID(),
        "x-shopify-triggered-at": new Date().toISOString(),
        "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body).digest("base64"),
      },
    });
    console.log(`${topic} -> ${response.status} ${await response.text()}`);
    if (!response.ok) process.exitCode = 1;
    return response.ok;
  };

  const pickOrder = () => {
    const wanted = values.order ?? "last";
    const found = wanted === "last" ? log.at(-1) : log.find((o) => o.orderId === wanted);
    if (!found) throw new Error(`No simulated order ${wanted}: send one with \`npm run simulate -- order\` first.`);
    return found;
  };

  if (command === "order") {
    const items = Math.max(1, Number(values.items ?? 1));
    const price = values.amount ?? "49.99";
    const lines: SampleLine[] = Array.from({ length: items }, (_, i) => ({
      title: `Simulated product ${i + 1}`,
      price,
      quantity: 1,
    }));
    const order = sampleOrder({
      lines,
      email: values.email,
      customerId: values.customer,
      couponCode: values.coupon,
      referralCode: values.code,
      clickId: values.click,
    });
    if (await send("orders/create", order.text)) {
      log.push({
        orderId: order.orderId,
        email: values.email ?? "",
        lines: order.lines,
        sentAt: new Date().toISOString(),
      });
      writeFileSync(logFile, JSON.stringify(log.slice(-200), null, 2));
      console.log(`order gid://shopify/Order/${order.orderId}`);
      await showSale(url, `gid://shopify/Order/${order.orderId}`, secrets.values.DEMO_API_KEY);
    }
  } else if (command === "refund") {
    const order = pickOrder();
    const n = Math.max(1, Number(values.lines ?? 1));
    const refunded = order.lines
      .slice(0, n)
      .map((l) => ({ lineId: l.id, quantity: l.quantity, subtotal: (Number(l.price) * l.quantity).toFixed(2) }));
    await send("refunds/create", sampleRefund(order.orderId, refunded));
    await showSale(url, `gid://shopify/Order/${order.orderId}`, secrets.values.DEMO_API_KEY);
  } else if (command === "cancel") {
    const order = pickOrder();
    const body = sampleOrder({ orderId: order.orderId, cancelledAt: new Date(), lines: order.lines }).text;
    await send("orders/cancelled", body);
    await showSale(url, `gid://shopify/Order/${order.orderId}`, secrets.values.DEMO_API_KEY);
  } else if (command === "proxy-url") {
    console.log(signedProxyUrl(url, shop, values.path ?? "/", secret));
  } else {
    console.error("usage: npm run simulate -- order|refund|cancel|proxy-url [options] (see app/cli/simulate.ts)");
    process.exitCode = 2;
  }
}

/** Prints what the app decided, through the REST API (the job runs in the background). */
async function showSale(url: string, orderGid: string, apiKey: string) {
  for (let attempt = 0; attempt < 10; attempt++) {
    await new Promise((r) => setTimeout(r, 300));
    const response = await fetch(`${url}/api/v1/sales?limit=50`, {
      headers: { authorization: `Bearer ${apiKey}` },
    }).catch(() => null);
    if (!response?.ok) continue;
    const body = (await response.json()) as {
      data: { order_gid: string; status: string; attribution: unknown; commissions: unknown[] }[];
    };
    const sale = body.data.find((s) => s.order_gid === orderGid);
    if (sale) {
      console.log(
        JSON.stringify({ status: sale.status, attribution: sale.attribution, commissions: sale.commissions }, null, 2),
      );
      return;
    }
  }
  console.log("(the sale is not visible through the REST API yet; see /admin/sales)");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
