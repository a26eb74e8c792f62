import http from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for the Shopify endpoints the app calls, so auth tests run
// offline. The app reaches it through SHOPIFY_ADMIN_BASE_URL, which turns
// https://{shop}/... into {base}/shops/{shop}/... (app/shopify.server.ts).
// It answers:
//   POST /shops/{shop}/admin/oauth/access_token          (authorization code grant, token exchange)
//   POST /shops/{shop}/admin/api/{version}/graphql.json  (the shop details query, and
//        the nodes query of product collections, from `productCollections`)
// and records every request so tests can check what the app sent.

export interface FakeRequest {
  method: string;
  shop: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeShopDetails {
  name: string;
  email: string;
  currencyCode: string;
  ianaTimezone: string;
  primaryDomain: { url: string };
  plan: { displayName: string };
  currencyFormats: { moneyFormat: string };
}

export interface FakeShopify {
  url: string;
  requests: FakeRequest[];
  accessToken: string;
  scope: string;
  shopDetails: FakeShopDetails;
  // Collection GIDs by product GID, for the nodes query.
  productCollections: Record<string, string[]>;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_DETAILS: FakeShopDetails = {
  name: "Test Shop",
  email: "owner@test-shop.example",
  currencyCode: "EUR",
  ianaTimezone: "Europe/Paris",
  primaryDomain: { url: "https://test-shop.example" },
  plan: { displayName: "Basic" },
  currencyFormats: { moneyFormat: "€{{amount}}" },
};

function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (!text) return resolve({});
      try {
        resolve(JSON.parse(text) as Record<string, unknown>);
      } catch {
        // The token endpoint also accepts form bodies.
        resolve(Object.fromEntries(new URLSearchParams(text)));
      }
    });
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const ACCESS_TOKEN = "shpat_fake_offline_token";

/** Starts the fake on a free loopback port; `scope` is what it grants with each token. */
export async function startFakeShopify(options: { scope?: string } = {}): Promise<FakeShopify> {
  const scope = options.scope ?? "";
  const fake = {
    url: "",
    requests: [] as FakeRequest[],
    accessToken: ACCESS_TOKEN,
    scope,
    shopDetails: structuredClone(DEFAULT_DETAILS),
    productCollections: {} as Record<string, string[]>,
    reset() {
      this.productCollections = {};
      this.requests.length = 0;
      this.accessToken = ACCESS_TOKEN;
      this.scope = scope;
      this.shopDetails = structuredClone(DEFAULT_DETAILS);
    },
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const match = /^\/shops\/([^/]+)(\/.*)$/.exec(url.pathname);
    const body = await readBody(req);
    if (!match) return send(res, 404, { errors: "Not Found" });
    const [, shop, path] = match as unknown as [string, string, string];
    fake.requests.push({ method: req.method ?? "GET", shop, path, headers: req.headers, body });

    if (req.method === "POST" && path === "/admin/oauth/access_token") {
      // Shopify answers a code grant and a token exchange the same way for offline tokens.
      if (!body.client_id || !body.client_secret || !(body.code || body.subject_token)) {
        return send(res, 400, { error: "invalid_request" });
      }
      return send(res, 200, { access_token: fake.accessToken, scope: fake.scope });
    }
    if (req.method === "POST" && /^\/admin\/api\/[^/]+\/graphql\.json$/.test(path)) {
      if (req.headers["x-shopify-access-token"] !== fake.accessToken) {
        return send(res, 401, {
          errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
        });
      }
      const query = String(body.query ?? "");
      if (/\bshop\s*\{/.test(query)) return send(res, 200, { data: { shop: fake.shopDetails } });
      if (/\bnodes\s*\(\s*ids:/.test(query)) {
        const ids = ((body.variables as { ids?: unknown } | undefined)?.ids ?? []) as string[];
        const nodes = ids.map((id) =>
          id in fake.productCollections
            ? { id, collections: { nodes: fake.productCollections[id]!.map((c) => ({ id: c })) } }
            : null,
        );
        return send(res, 200, { data: { nodes } });
      }
      return send(res, 200, { errors: [{ message: "The fake Shopify does not answer this query." }] });
    }
    return send(res, 404, { errors: "Not Found" });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
