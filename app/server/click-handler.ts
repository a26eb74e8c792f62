// GET /r/{code}[?to=/path][&shop=name.myshopify.com]: the affiliate link.
//
// A plain Node handler that app-server.ts consults before Express and Remix:
// a click is the app's hottest request, and it needs none of the middleware.
// It records a Click and only once that row is committed answers
//   302 https://{storefront host}{to}?{referralParam}={CODE}&_aff_click={clickId}
//
// Rules:
// - The code is matched upper-cased against approved affiliates of installed
//   shops. Codes are unique per shop only: when the same code is approved in
//   several shops, the link credits nobody unless `?shop=` names one of them
//   (links the app hands out for such codes must carry `shop=`).
// - `to` must be a path on the shop's own storefront (see safeLandingPath);
//   anything else lands on "/".
// - Unknown, disabled (not approved) and ambiguous codes record nothing and
//   look exactly alike: 302 to the shop's home page when `?shop=` names an
//   installed shop, else a plain 404. Nobody learns whether a code exists.
// - The client address is stored only as a keyed hash (SESSION_SECRET).
// - Code lookups are cached in memory for a few seconds (positive and
//   negative), so a burst of clicks on one link costs one lookup; a status
//   change takes effect within the TTL. Nothing is shared between instances.
import type http from "node:http";
import { getConfig } from "../config.server";
import { parseReferralCode } from "../models/tracking/referral-code";
import { createClickStore, type ClickStore } from "../db/click-store.server";
import { buildClickRow, toClickTarget, type ClickTarget } from "../models/tracking/record-click.server";
import {
  isMyshopifyDomain,
  redirectTemplate,
  safeLandingPath,
  shopHomeUrl,
  shopHost,
  type RedirectTemplate,
} from "../models/tracking/redirect-url";

export interface ClickHandler {
  /** Handles GET /r/... and answers true; anything else is left alone (false). */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  close(): Promise<void>;
}

export interface ClickHandlerOptions {
  /** Defaults to the app configuration (DATABASE_URL), read at the first click. */
  store?: ClickStore;
  secret?: string;
  cacheTtlMs?: number;
  cacheMax?: number;
}

type Resolution =
  | { target: ClickTarget; home: null; code: string; templates: Map<string, RedirectTemplate> }
  | { target: null; home: string | null };

const NO_STORE = "private, no-store";

export function isClickRequest(req: http.IncomingMessage): boolean {
  return req.method === "GET" && typeof req.url === "string" && req.url.startsWith("/r/");
}

interface ParsedClick {
  code: string | null;
  to: string | null;
  shop: string | null;
}

export function parseClickUrl(rawUrl: string): ParsedClick {
  const q = rawUrl.indexOf("?");
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? "" : rawUrl.slice(q + 1));
  const shopParam = params.get("shop");
  const shop = isMyshopifyDomain(shopParam) ? shopParam.toLowerCase() : null;
  const match = /^\/r\/([^/]+)\/?$/.exec(pathname);
  let code: string | null = null;
  if (match) {
    try {
      code = parseReferralCode(decodeURIComponent(match[1]!));
    } catch {
      code = null;
    }
  }
  return { code, to: params.get("to"), shop };
}

export function createClickHandler(options: ClickHandlerOptions = {}): ClickHandler {
  const ttl = options.cacheTtlMs ?? 5000;
  const cacheMax = options.cacheMax ?? 10_000;
  let store = options.store;
  let secret = options.secret;
  const cache = new Map<string, { expires: number; value: Resolution }>();
  const inFlight = new Map<string, Promise<Resolution>>();

  const ready = () => {
    if (!store || !secret) {
      const config = getConfig();
      secret ??= config.SESSION_SECRET;
      store ??= createClickStore(config.DATABASE_URL);
    }
    return { store: store!, secret: secret! };
  };

  const decide = (code: string | null, targets: ClickTarget[], home: string | null): Resolution => {
    if (code && targets.length === 1) return { target: targets[0]!, home: null, code, templates: new Map() };
    return { target: null, home };
  };

  /** The cached resolution, or a promise of a fresh one. */
  const resolve = (s: ClickStore, code: string | null, shop: string | null): Resolution | Promise<Resolution> => {
    const key = `${code ?? ""}\n${shop ?? ""}`;
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.expires > now) return hit.value;
    const remember = (value: Resolution) => {
      if (cache.size >= cacheMax) cache.clear();
      cache.set(key, { expires: Date.now() + ttl, value });
      return value;
    };
    const pending = inFlight.get(key);
    if (pending) return pending;
    const targets = code ? s.findTargets(code, shop) : [];
    const home = shop ? s.findShop(shop) : null;
    if (targets instanceof Promise || home instanceof Promise) {
      // One lookup per key at a time: a burst on a new link waits for the first.
      const lookup = Promise.all([targets, home])
        .then(([t, h]) => remember(decide(code, t.map(toClickTarget), h ? shopHomeUrl(shopHost(h)) : null)))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, lookup);
      return lookup;
    }
    return remember(decide(code, targets.map(toClickTarget), home ? shopHomeUrl(shopHost(home)) : null));
  };

  const redirect = (res: http.ServerResponse, location: string) => {
    // A flat [name, value, ...] list is the cheapest form Node accepts.
    // (Node adds "Content-Length: 0" to an empty response itself.)
    res.writeHead(302, ["Location", location, "Cache-Control", NO_STORE]);
    res.end();
  };

  const answer = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    s: ClickStore,
    key: string,
    parsed: ParsedClick,
    r: Resolution,
  ) => {
    if (!r.target) {
      // Unknown, disabled or ambiguous: nothing recorded, one shape for all.
      if (r.home) return redirect(res, r.home);
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE });
      res.end("Not found");
      return;
    }
    const t = r.target;
    const path = safeLandingPath(parsed.to);
    // The redirect URL of each landing path, built once per cache entry.
    let template = r.templates.get(path);
    if (!template) {
      if (r.templates.size >= 100) r.templates.clear();
      template = redirectTemplate(t.host, path, t.param, r.code);
      r.templates.set(path, template);
    }
    const row = buildClickRow(
      {
        shopId: t.shopId,
        affiliateId: t.affiliateId,
        source: "link",
        landingUrl: `https://${t.host}${path}`,
        referrer: rawHeader(req.rawHeaders, "referer"),
        ip: req.socket.remoteAddress ?? null,
        userAgent: rawHeader(req.rawHeaders, "user-agent"),
      },
      key,
    );
    const url = template;
    s.insert(row, (error) => {
      if (error === undefined) {
        redirect(res, url.before + row.clickId + url.after);
      } else {
        // Not committed: no click id goes out. The visitor still reaches the
        // shop with the code, and the storefront script records the click
        // through the app proxy instead. A lookup cached a moment before the
        // affiliate was deleted ends here too, so forget it.
        console.error("[click] could not record a click:", error);
        cache.clear();
        redirect(res, url.withoutClick);
      }
    });
  };

  return {
    handle(req, res) {
      if (!isClickRequest(req)) return false;
      try {
        const { store: s, secret: key } = ready();
        const parsed = parseClickUrl(req.url!);
        const resolution = resolve(s, parsed.code, parsed.shop);
        if (resolution instanceof Promise) {
          resolution
            .then((r) => answer(req, res, s, key, parsed, r))
            .catch((error: unknown) => unavailable(res, error));
        } else {
          answer(req, res, s, key, parsed, resolution);
        }
      } catch (error) {
        unavailable(res, error);
      }
      return true;
    },
    async close() {
      cache.clear();
      // Only a store this handler opened is its to close.
      if (store && !options.store) await store.close();
      store = options.store;
    },
  };
}

/** A request header read from rawHeaders: cheaper than building req.headers for two values. */
function rawHeader(raw: string[], lowerName: string): string | null {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) return raw[i + 1] ?? null;
  }
  return null;
}

function unavailable(res: http.ServerResponse, error: unknown) {
  console.error("[click] lookup failed:", error);
  if (res.headersSent) return;
  res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE, "Retry-After": "5" });
  res.end("Something went wrong, please try again.");
}
