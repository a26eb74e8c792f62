import http from "node:http";
import type { AddressInfo } from "node:net";
import { CheckoutError, StoreSimulator } from "./store";

// The store simulator on HTTP (loopback). The app reaches it through
// SHOPIFY_ADMIN_BASE_URL, which turns https://{shop}/... into
// {base}/shops/{shop}/...:
//   POST /shops/{shop}/admin/oauth/access_token            code grant / token exchange
//   POST /shops/{shop}/admin/api/{version}/graphql.json    the Admin API (also /admin/api/... by token)
//   GET|POST /shops/{shop}/admin/charges/.../confirm_recurring_application_charge
//                                                          the page a merchant approves a charge on
// and the CLI drives the store through /_simulator/shops/{shop}/... (orders,
// refunds, cancellations, products, uninstall, a summary).

const MAX_BODY = 2 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, "Request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseBody(text: string, contentType: string | undefined): Record<string, unknown> {
  if (!text) return {};
  if (contentType?.includes("application/graphql")) return { query: text };
  if (contentType?.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Shopify's token endpoint also takes form bodies without a content type.
    if (/^[\w%.-]+=/.test(text)) return Object.fromEntries(new URLSearchParams(text));
  }
  throw new HttpError(400, "The body must be a JSON object");
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function chargePage(store: StoreSimulator, shopDomain: string, id: string, action: string) {
  const s = store.shop(shopDomain).subscriptions.find((x) => x.id === id);
  if (!s) return null;
  const price = s.lineItems
    .map((li) =>
      li.kind === "recurring"
        ? `${li.price} ${li.currency} ${li.interval === "ANNUAL" ? "a year" : "every 30 days"}`
        : `usage up to ${li.cappedAmount} ${li.currency} (${li.terms})`,
    )
    .join(" + ");
  const body =
    s.status === "PENDING"
      ? `<form method="post" action="${escapeHtml(action)}">
  <button name="decision" value="approve" type="submit">Approve</button>
  <button name="decision" value="decline" type="submit">Decline</button>
</form>`
      : `<p>This charge is ${escapeHtml(s.status.toLowerCase())}.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Approve subscription</title></head>
<body>
<h1>${escapeHtml(store.app.title)} wants to charge ${escapeHtml(shopDomain)}</h1>
<p>Store simulator: this page stands in for Shopify's charge confirmation.</p>
<dl><dt>Plan</dt><dd>${escapeHtml(s.name)}</dd><dt>Price</dt><dd>${escapeHtml(price)}</dd>
<dt>Free trial</dt><dd>${s.trialDays} days</dd><dt>Test charge</dt><dd>${s.test ? "yes" : "no"}</dd></dl>
${body}
</body></html>`;
}

async function handle(store: StoreSimulator, req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", "http://simulator.invalid");
  const method = req.method ?? "GET";
  const scoped = /^\/shops\/([a-z0-9][a-z0-9-]*\.myshopify\.com)(\/.*)$/.exec(url.pathname);
  const shopDomain = scoped?.[1] ?? null;
  const path = scoped?.[2] ?? url.pathname;
  const text = method === "GET" || method === "HEAD" ? "" : await readBody(req);

  // ---- the simulator's own controls (the CLI) ----
  const control = /^\/_simulator\/shops\/([a-z0-9][a-z0-9-]*\.myshopify\.com)(\/.*)?$/.exec(url.pathname);
  if (control)
    return handleControl(store, control[1]!, control[2] ?? "", method, parseBody(text, "application/json"), res);

  const body = parseBody(text, req.headers["content-type"]);
  const record = { method, shop: shopDomain, path, headers: req.headers, body } as StoreSimulator["requests"][number];
  store.requests.push(record);

  if (method === "POST" && path === "/admin/oauth/access_token") {
    if (!shopDomain) return send(res, 404, { errors: "Not Found" });
    const grant = body.code || body.subject_token;
    if (body.client_id !== store.app.apiKey || body.client_secret !== store.app.apiSecret || !grant)
      return send(res, 400, {
        error: "invalid_request",
        error_description: "The client credentials or the authorization grant are missing or wrong.",
      });
    return send(res, 200, store.install(shopDomain));
  }

  const api = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(path);
  if (api) {
    if (method !== "POST") return send(res, 405, { errors: "Method Not Allowed" }, { allow: "POST" });
    const token = req.headers["x-shopify-access-token"];
    const shop = store.shopForToken(Array.isArray(token) ? token[0] : token, shopDomain);
    if (!shop)
      return send(res, 401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    if (api[1] !== store.apiVersion)
      return send(res, 404, {
        errors: `Not Found: the store simulator serves Admin API version ${store.apiVersion} (its schema), not ${api[1]}.`,
      });
    // A stalled request: never carried out nor answered (a worker killed while it waits).
    if (store.takeStall(shop.domain, typeof body.query === "string" ? body.query : "")) return;
    const outcome = store.graphql(shop, body);
    record.outcome = outcome;
    // A held answer: the change is made, the client waits until it gives up or dies.
    if (store.takeHold(shop.domain, outcome.operation)) return;
    return send(res, outcome.status, outcome.body);
  }

  const charge =
    /^\/admin\/charges\/(\d+)\/(\d+)\/RecurringApplicationCharge\/confirm_recurring_application_charge$/.exec(path);
  if (charge && shopDomain) {
    const id = charge[2]!;
    if (method === "GET") {
      const page = chargePage(store, shopDomain, id, url.pathname + url.search);
      if (!page) return send(res, 404, { errors: "Not Found" });
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(page);
    }
    if (method === "POST") {
      const decision = body.decision;
      if (decision !== "approve" && decision !== "decline")
        throw new HttpError(400, "decision must be approve or decline");
      const s = store.decideSubscription(shopDomain, id, decision === "approve");
      const back = new URL(s.returnUrl);
      back.searchParams.set("charge_id", s.id);
      res.writeHead(303, { location: back.toString() });
      return res.end();
    }
  }
  return send(res, 404, { errors: "Not Found" });
}

async function handleControl(
  store: StoreSimulator,
  shop: string,
  path: string,
  method: string,
  body: Record<string, any>,
  res: http.ServerResponse,
) {
  const summary = (result: { deliveries: unknown[] } & Record<string, unknown>) => result;
  if (method === "GET" && path === "") {
    const s = store.shop(shop);
    return send(res, 200, {
      shop: s.domain,
      installed: s.installed,
      products: s.products.map((p) => ({
        id: p.id,
        handle: p.handle,
        title: p.title,
        price: p.variants[0]?.price,
        status: p.status,
      })),
      customers: s.customers.map((c) => ({ id: c.id, email: c.email, name: `${c.firstName} ${c.lastName}`.trim() })),
      discountCodes: s.discounts.flatMap((d) =>
        d.codes.map((c) => ({ code: c.code, title: d.title, createdByApp: c.createdByApp })),
      ),
      orders: s.orders
        .slice(-20)
        .map((o) => ({ id: o.id, name: o.name, email: o.email, cancelled: Boolean(o.cancelledAt) })),
    });
  }
  if (method === "POST" && path === "/orders") return send(res, 201, summary(await store.placeOrder(shop, body)));
  const orderPath = /^\/orders\/([^/]+)\/(refunds|cancel)$/.exec(path);
  if (method === "POST" && orderPath) {
    const result =
      orderPath[2] === "refunds"
        ? await store.refund(shop, decodeURIComponent(orderPath[1]!), Number(body.lines ?? 1))
        : await store.cancel(shop, decodeURIComponent(orderPath[1]!));
    return send(res, 200, summary(result));
  }
  if (method === "POST" && path === "/products") return send(res, 201, summary(await store.createProduct(shop, body)));
  const productPath = /^\/products\/([^/]+)$/.exec(path);
  if (productPath && method === "PUT")
    return send(res, 200, summary(await store.updateProduct(shop, decodeURIComponent(productPath[1]!), body)));
  if (productPath && method === "DELETE")
    return send(res, 200, summary(await store.deleteProduct(shop, decodeURIComponent(productPath[1]!))));
  if (method === "POST" && path === "/uninstall") return send(res, 200, { deliveries: [await store.uninstall(shop)] });
  return send(res, 404, { error: "Not Found" });
}

export interface RunningStore {
  url: string;
  store: StoreSimulator;
  close(): Promise<void>;
}

/** Serves the store on loopback (port 0: a free one). */
export async function serveStore(
  store: StoreSimulator,
  options: { port?: number; host?: string } = {},
): Promise<RunningStore> {
  const server = http.createServer((req, res) => {
    handle(store, req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : error instanceof CheckoutError ? 422 : 500;
      if (status === 500) console.error("[store] request failed:", error);
      if (!res.headersSent) send(res, status, { error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  store.baseUrl = url;
  return {
    url,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
