import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { signedProxyUrl } from "./referrals";

// A storefront for browser tests: Shopify's part of a theme page, played on a
// loopback port. It serves a page with the theme app extension's embed
// blocks rendered from extensions/ (their Liquid reduced to what they use:
// asset URLs, the block's setting defaults, the signed-in customer), the
// blocks' assets, and what the scripts call on the shop's own domain:
// - /apps/affiliate/* → the app's /proxy/*, signed as Shopify's app proxy
//   signs it (shop, logged_in_customer_id, path_prefix, timestamp);
// - POST /cart/update.js: the cart's attributes (kept here, see `cart`);
// - /discount/CODE?redirect=/path: applies the code to the cart and redirects.

const EXTENSION = path.resolve(__dirname, "../../extensions/affiliate-tracking");

export interface StorefrontCustomer {
  id: string;
  email: string;
  firstName: string;
}

export interface Storefront {
  url: string;
  /** The cart as Shopify would hand it to checkout. */
  cart: { attributes: Record<string, string>; discountCodes: string[] };
  /** Proxied requests, in order ("GET /proxy/referrals/widget"). */
  proxied: string[];
  /** Signs later pages in as this customer (null: a guest). */
  signIn(customer: StorefrontCustomer | null): void;
  close(): Promise<void>;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * An embed block's Liquid rendered for a page: comments and the schema
 * dropped, settings at their schema defaults, `customer` the signed-in one.
 * Only the constructs the app's blocks use are understood; anything else
 * left in the output fails the test instead of passing silently.
 */
export function renderEmbedBlock(file: string, customer: StorefrontCustomer | null): string {
  const source = readFileSync(path.join(EXTENSION, "blocks", file), "utf8");
  const schema = JSON.parse(/{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(source)![1]!) as {
    settings: { id: string; default?: unknown }[];
  };
  const settings = Object.fromEntries(schema.settings.map((s) => [s.id, s.default]));
  let html = source
    .replace(/{%-?\s*comment\s*-?%}[\s\S]*?{%-?\s*endcomment\s*-?%}/g, "")
    .replace(/{%-?\s*schema\s*-?%}[\s\S]*?{%-?\s*endschema\s*-?%}/g, "")
    .replace(/{%-?\s*if customer\s*-?%}([\s\S]*?){%-?\s*endif\s*-?%}/g, (_m, inner: string) => (customer ? inner : ""))
    .replace(
      /{{\s*'([^']+)'\s*\|\s*asset_url\s*\|\s*stylesheet_tag\s*}}/g,
      (_m, name: string) => `<link href="/assets/${name}" rel="stylesheet" type="text/css" media="all" />`,
    )
    .replace(/{{\s*'([^']+)'\s*\|\s*asset_url\s*}}/g, (_m, name: string) => `/assets/${name}`)
    .replace(/{{\s*block\.settings\.(\w+)(\s*\|\s*escape)?\s*}}/g, (_m, id: string) =>
      escapeHtml(String(settings[id] ?? "")),
    )
    .replace(/{{\s*customer\.(email|first_name)\s*\|\s*escape\s*}}/g, (_m, field: string) =>
      escapeHtml(field === "email" ? customer!.email : customer!.firstName),
    );
  if (/{{|{%/.test(html)) throw new Error(`renderEmbedBlock: Liquid left in ${file}: ${html}`);
  html = html.trim();
  return html;
}

function page(title: string, body: string, blocks: string, cart: Storefront["cart"]): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:Georgia,serif;color:#222;background:#fffdf8}
header{padding:18px 32px;border-bottom:1px solid #e7e1d6;display:flex;justify-content:space-between;align-items:center}
header strong{font-size:22px;letter-spacing:.04em}
main{padding:40px 32px;max-width:920px}
.hero{background:#efe6d6;border-radius:12px;padding:48px 32px;margin-bottom:24px}
.products{display:grid;grid-template-columns:repeat(3,1fr);gap:16px}
.product{border:1px solid #e7e1d6;border-radius:10px;padding:16px;background:#fff}
.cart-note{font-size:14px;color:#555}
</style>
<script>window.Shopify = { routes: { root: "/" }, locale: "en", shop: "test" };</script>
</head><body>
<header><strong>Trail &amp; Tide</strong><span class="cart-note" data-testid="cart">Cart: ${
    cart.discountCodes.length ? `discount ${escapeHtml(cart.discountCodes.join(", "))} applied` : "no discount"
  }</span></header>
<main>${body}</main>
${blocks}
</body></html>`;
}

const HOME = `<section class="hero"><h1>Gear for the long way round</h1><p>Packs, boots and layers built to last.</p></section>
<div class="products"><div class="product"><h2>Ridge Pack 30L</h2><p>$129.00</p></div><div class="product"><h2>Wool Hiking Socks</h2><p>$18.00</p></div><div class="product"><h2>Storm Shell Jacket</h2><p>$210.00</p></div></div>`;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the storefront of `shopDomain`, proxying to the app at `appUrl()` (read per request). */
export async function startStorefront(options: {
  shopDomain: () => string;
  appUrl: () => string;
  blocks?: string[];
  visitorIp?: string;
}): Promise<Storefront> {
  const blocks = options.blocks ?? ["refer-a-friend.liquid"];
  let customer: StorefrontCustomer | null = null;
  const cart: Storefront["cart"] = { attributes: {}, discountCodes: [] };
  const proxied: string[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://storefront.local");
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": type, ...headers });
      res.end(body);
    };
    if (url.pathname.startsWith("/assets/")) {
      const name = path.basename(url.pathname);
      const type = name.endsWith(".css") ? "text/css" : "text/javascript";
      return send(200, type, readFileSync(path.join(EXTENSION, "assets", name)));
    }
    if (url.pathname.startsWith("/apps/affiliate/")) {
      const rest = url.pathname.slice("/apps/affiliate/".length);
      const target = signedProxyUrl(
        options.appUrl(),
        options.shopDomain(),
        rest,
        Object.fromEntries(url.searchParams),
        { customerId: customer?.id ?? "" },
      );
      proxied.push(`${req.method} /proxy/${rest}`);
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : (await readBody(req)).toString("utf8");
      const answer = await fetch(target, {
        method: req.method,
        headers: {
          "content-type": req.headers["content-type"] ?? "application/json",
          accept: req.headers.accept ?? "*/*",
          "accept-language": req.headers["accept-language"] ?? "en",
          "x-forwarded-for": options.visitorIp ?? "203.0.113.20",
        },
        body,
        redirect: "manual",
      });
      const headers: Record<string, string> = {};
      const location = answer.headers.get("location");
      if (location) headers.Location = location;
      return send(
        answer.status,
        answer.headers.get("content-type") ?? "text/plain",
        Buffer.from(await answer.arrayBuffer()),
        headers,
      );
    }
    if (url.pathname === "/cart/update.js" && req.method === "POST") {
      const body = JSON.parse((await readBody(req)).toString("utf8") || "{}") as {
        attributes?: Record<string, string>;
      };
      Object.assign(cart.attributes, body.attributes ?? {});
      return send(200, "application/json", JSON.stringify({ attributes: cart.attributes }), {
        "Set-Cookie": "cart=cart-token-1; Path=/",
      });
    }
    if (url.pathname.startsWith("/discount/")) {
      const code = decodeURIComponent(url.pathname.slice("/discount/".length));
      if (code && !cart.discountCodes.includes(code)) cart.discountCodes.push(code);
      const redirect = url.searchParams.get("redirect") ?? "/";
      return send(302, "text/plain", "", {
        Location: redirect.startsWith("/") && !redirect.startsWith("//") ? redirect : "/",
      });
    }
    if (url.pathname === "/favicon.ico") return send(204, "text/plain", "");
    const rendered = blocks.map((b) => renderEmbedBlock(b, customer)).join("\n");
    return send(200, "text/html; charset=utf-8", page("Trail & Tide", HOME, rendered, cart));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    cart,
    proxied,
    signIn: (c) => {
      customer = c;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
