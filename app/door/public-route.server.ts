import { json } from "@remix-run/node";
import { getConfig } from "../config.server";
import { validShopifyHmac } from "../lib/shopify-hmac";
import { shopify } from "../shopify.server";
import {
  keepingForm,
  mark,
  readInput,
  runRoute,
  withDeclaredWrites,
  type InputSpec,
  type PublicScheme,
  type RouteArgs,
} from "./door.server";

// The doors of routes anyone may call: no session is required, so there is no
// shop's client to hand out; the input is still read through the route's
// schemas and errors become answers (with the typed values, for the plain
// HTML forms of the portal). Each door is named after how its callers are
// known (PUBLIC_SCHEMES): `publicRoute` for pages, files and OAuth steps,
// `appProxyRoute`, `checkoutRoute`, `customerAccountRoute`, `pixelRoute` and
// `signedWebhookRoute`
// for the calls that Shopify or a provider makes or signs. The scheme's check
// runs in the door, before the handler and before the input is read.

// Routes write `export const loader = /* @__PURE__ */ publicRoute(...)`: the
// classic compiler's browser build drops a route's loader and action only by
// tree-shaking, which keeps a top-level call unless it is marked pure, and
// this .server module is empty in the browser (calling it there throws, and
// the page never hydrates).

export interface PublicSpec<Q, B, P> extends InputSpec<Q, B, P> {
  /** Headers of every answer, errors included (CORS of an endpoint other sites call). */
  headers?: Record<string, string>;
}

export interface PublicRequest<Q, B, P> {
  request: Request;
  /** The request's load context (shared by the loaders of one document). */
  context?: unknown;
  query: Q;
  body: B;
  params: P;
}

type Handler<R, Q, B, P, X = object> = (ctx: PublicRequest<Q, B, P> & X) => Promise<R>;

/**
 * The shared door: the scheme's check first (what it learns about the caller
 * goes to the handler; a Response it returns is the answer, with the spec's
 * headers), then the input, then the handler.
 */
function door<R, Q, B, P, X>(
  scheme: PublicScheme,
  spec: PublicSpec<Q, B, P>,
  check: (request: Request) => Promise<X | Response>,
  handler: Handler<R, Q, B, P, X>,
) {
  const route = async (args: RouteArgs) => {
    const response = await runRoute(
      args,
      async () => {
        const known = await check(args.request);
        // An early answer of the door, not the handler's: the route's data type stays the handler's.
        if (known instanceof Response) return known as unknown as R;
        const input = await readInput(args, spec);
        return keepingForm(input.rawBody, () =>
          withDeclaredWrites(spec, () => handler({ request: args.request, context: args.context, ...input, ...known })),
        );
      },
      { echo: true, headers: spec.headers },
    );
    if (spec.headers && response instanceof Response) {
      for (const [name, value] of Object.entries(spec.headers)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
    }
    return response;
  };
  return mark(route, { kind: "public", scheme });
}

const nothing = async () => ({});

/** A page, a public file or an OAuth step: anyone may call; the route says which with `scheme`. */
export function publicRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, B, P> & { scheme: "page" | "file" | "oauth" },
  handler: Handler<R, Q, B, P>,
) {
  return door(spec.scheme, spec, nothing, handler);
}

/**
 * A storefront request through Shopify's app proxy (/apps/... on the shop's
 * domain): Shopify signs it, and a missing or bad signature is refused (400)
 * before anything is read. The shop is then the signed `shop` parameter,
 * never anything the visitor chose.
 */
export function appProxyRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, B, P>,
  handler: Handler<R, Q, B, P>,
) {
  return door(
    "appProxy",
    spec,
    async (request) => {
      await shopify().authenticate.public.appProxy(request);
      return {};
    },
    handler,
  );
}

const usePost = () => json({ error: { code: "bad_request", message: "Use POST." } }, { status: 405 });

/** The CORS headers of an endpoint that Shopify's checkout (another origin) calls. */
function corsHeaders(allowHeaders: string, maxAge: number) {
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": allowHeaders,
    "Access-Control-Max-Age": String(maxAge),
  };
}

const CHECKOUT_HEADERS = { ...corsHeaders("Authorization, Content-Type", 7200), "Cache-Control": "no-store" };

/**
 * A checkout or customer-account UI extension's call (a web worker on
 * Shopify's origins): POST with Shopify's session token as `Authorization:
 * Bearer` (HS256 with the app secret; the handler compares `aud`). Every
 * answer carries CORS headers, errors too, so the extension can read them.
 */
export function checkoutRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, B, P>,
  handler: Handler<R, Q, B, P, { sessionToken: CheckoutSessionToken }>,
) {
  return door(
    "checkout",
    { ...spec, headers: { ...CHECKOUT_HEADERS, ...spec.headers } },
    async (request) => {
      if (request.method !== "POST") return usePost();
      const { sessionToken } = await shopify().authenticate.public.checkout(request);
      return { sessionToken };
    },
    handler,
  );
}

type CheckoutSessionToken = Awaited<
  ReturnType<ReturnType<typeof shopify>["authenticate"]["public"]["checkout"]>
>["sessionToken"];

/** The loader of a `checkoutRoute`: the CORS preflight (OPTIONS, answered by shopify-app-remix), else 405. */
export function checkoutPreflight() {
  return door(
    "checkout",
    { headers: CHECKOUT_HEADERS },
    async (request) => {
      if (request.method === "OPTIONS") await shopify().authenticate.public.checkout(request);
      return usePost();
    },
    nothing,
  );
}

const CUSTOMER_ACCOUNT_HEADERS = {
  ...corsHeaders("Authorization, Content-Type", 7200),
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Cache-Control": "private, no-store",
};

/**
 * A customer account UI extension's call (a web worker on Shopify's
 * customer account origin): Shopify's session token as `Authorization:
 * Bearer` (HS256 with the app secret; `dest` the shop, `sub` the signed-in
 * customer; the handler compares `aud`). The loader answers GET and the CORS
 * preflight (OPTIONS), the action POST. Every answer carries the CORS
 * headers, errors a loader throws too, so the extension can read them.
 */
export function customerAccountRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, B, P>,
  handler: Handler<R, Q, B, P, { sessionToken: CheckoutSessionToken }>,
) {
  const headers = { ...CUSTOMER_ACCOUNT_HEADERS, ...spec.headers };
  const route = door(
    "customerAccount",
    { ...spec, headers },
    async (request) => {
      // OPTIONS: shopify-app-remix throws the preflight's 204.
      const { sessionToken } = await shopify().authenticate.public.customerAccount(request);
      return { sessionToken };
    },
    handler,
  );
  // A loader throws its errors (the door's runRoute): they get the headers here.
  return mark(
    async (args: RouteArgs) => {
      try {
        return await route(args);
      } catch (error) {
        if (error instanceof Response)
          for (const [name, value] of Object.entries(headers))
            if (!error.headers.has(name)) error.headers.set(name, value);
        throw error;
      }
    },
    { kind: "public", scheme: "customerAccount" },
  );
}

const PIXEL_HEADERS = corsHeaders("Content-Type", 86400);

/**
 * The web pixel's report from the shop's checkout (another origin). Pixels
 * carry no credential: the report names its shop, which must be installed,
 * and what it claims is checked against the order the shop's webhook brings.
 * Any origin may call; every answer carries the CORS headers.
 */
export function pixelRoute<R, Q = undefined, B = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, B, P>,
  handler: Handler<R, Q, B, P>,
) {
  return door(
    "pixel",
    { ...spec, headers: { ...PIXEL_HEADERS, ...spec.headers } },
    async (request) => {
      if (request.method !== "POST") return usePost();
      return {};
    },
    handler,
  );
}

/** The loader of a `pixelRoute`: the CORS preflight (OPTIONS) is 204, anything else 405. */
export function pixelPreflight() {
  return door(
    "pixel",
    { headers: PIXEL_HEADERS },
    async (request) => {
      return request.method === "OPTIONS" ? new Response(null, { status: 204 }) : usePost();
    },
    nothing,
  );
}

/**
 * A provider's webhook (PayPal): POST only; the handler gets the raw body as
 * sent, since the signature covers those exact bytes, and verifies it before
 * it trusts a word of it.
 */
export function signedWebhookRoute<R, Q = undefined, P = Record<string, string | undefined>>(
  spec: PublicSpec<Q, undefined, P>,
  handler: Handler<R, Q, undefined, P, { rawBody: string }>,
) {
  return door(
    "signedWebhook",
    spec,
    async (request) => {
      if (request.method !== "POST") return json({ error: { code: "method_not_allowed" } }, { status: 405 });
      return { rawBody: await request.text() };
    },
    handler,
  );
}

/**
 * A Shopify Flow action request (POST /flow/actions/{handle}): Shopify signs
 * the raw body with the app's API secret (X-Shopify-Hmac-Sha256); a missing
 * or wrong signature is refused (401) before a byte of it is parsed. The
 * handler gets the raw body, the signed words to trust.
 */
export function flowActionRoute<R, P = Record<string, string | undefined>>(
  spec: PublicSpec<undefined, undefined, P>,
  handler: Handler<R, undefined, undefined, P, { rawBody: string }>,
) {
  return door(
    "flowAction",
    spec,
    async (request) => {
      if (request.method !== "POST") return json({ error: { code: "method_not_allowed" } }, { status: 405 });
      const rawBody = await request.text();
      if (!validShopifyHmac(getConfig().SHOPIFY_API_SECRET, rawBody, request.headers.get("x-shopify-hmac-sha256")))
        return json(
          {
            error: {
              code: "unauthenticated",
              message: "The request's signature (X-Shopify-Hmac-Sha256) is missing or does not match its body.",
            },
          },
          { status: 401 },
        );
      return { rawBody };
    },
    handler,
  );
}
