// GET /r/{shop-handle}/{code}[?to=/path]: the affiliate link the app hands
// out; the older GET /r/{code}[?to=/path][&shop=name.myshopify.com] keeps
// working.
//
// A plain Node handler that app-server.ts consults before Express and Remix:
// a click is the app's hottest request, and it needs none of the middleware.
// It records a Click and only once that row is committed answers
//   302 https://{storefront host}{to}?{referralParam}={CODE}&_aff_click={clickId}
// or, when the shop's links apply the affiliate's discount and the affiliate
// has a code Shopify has created (Settings > Promote link),
//   302 https://{storefront host}/discount/{DISCOUNT}?redirect={that path and query, encoded}
//
// Rules:
// - The code is matched upper-cased against approved affiliates of installed
//   shops. Codes are unique per shop only: a link naming no shop (the old
//   form, without `?shop=`) goes to the shop a LegacyLinkCode names for its
//   code (the shop that had the code when such links were handed out), and
//   otherwise credits nobody when the same code is approved in several
//   shops; every link the app hands out now names its shop.
// - `to` must be a path on the shop's own storefront (see safeLandingPath);
//   anything else lands on "/".
// - `sub_id`, `sub1`..`sub5` and `utm_*` are stored on the click (cleaned and
//   cut, never refused: link-tags.ts); `via=qr` records the click as a QR
//   scan (source "qr"). They are read with the rest of the URL, once per
//   distinct link (parseLink's cache), so they cost the hot path nothing.
// - Unknown, disabled (not approved) and ambiguous codes record nothing and
//   look exactly alike: 302 to the shop's home page when the link names an
//   installed shop, else a 404 page in the visitor's language (link-pages.ts).
//   Nobody learns whether a code exists.
// - The client address is stored only as a keyed hash (SESSION_SECRET).
// - Code lookups are cached in memory for a few seconds (positive and
//   negative), so a burst of clicks on one link costs one lookup; a status
//   change takes effect within the TTL. Nothing is shared between instances.
import type http from "node:http";
import { getConfig } from "../config.server";
import { GENERIC_ERROR_MESSAGE } from "../lib/errors";
import { errorForLog } from "../lib/log-text";
import { isShopHandle } from "../lib/portal-ways";
import { parseReferralCode } from "../models/tracking/referral-code";
import { createClickStore, type ClickStore } from "../db/click-store.server";
import { buildClickRow, toClickTarget, type ClickTarget } from "../models/tracking/record-click.server";
import { NO_TAGS, readLinkTags, type LinkTags } from "../models/tracking/link-tags";
import { linkPage, type LinkPageKind } from "./link-pages";
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

/** A landing path's redirect URL halves and the landing URL a click stores. */
interface Landing {
  template: RedirectTemplate;
  landingUrl: string;
}

type Resolution =
  | { target: ClickTarget; home: null; code: string; landings: Map<string, Landing> }
  | { target: null; home: string | null };

const NO_STORE = "private, no-store";

export function isClickRequest(req: http.IncomingMessage): boolean {
  return req.method === "GET" && typeof req.url === "string" && req.url.startsWith("/r/");
}

interface ParsedClick {
  code: string | null;
  to: string | null;
  shop: string | null;
  /** sub_id, sub1..sub5, utm_* and the QR marker (link-tags.ts). */
  tags: LinkTags;
}

interface ParsedLink extends ParsedClick {
  /** The key of the code lookup cache. */
  key: string;
  /** The landing path `to` asks for, made safe. */
  path: string;
}

function decodeCode(part: string): string | null {
  try {
    return parseReferralCode(decodeURIComponent(part));
  } catch {
    return null;
  }
}

export function parseClickUrl(rawUrl: string): ParsedClick {
  const q = rawUrl.indexOf("?");
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const params = new URLSearchParams(q === -1 ? "" : rawUrl.slice(q + 1));
  const match = /^\/r\/([^/]+)(?:\/([^/]+))?\/?$/.exec(pathname);
  if (match?.[2] !== undefined) {
    // /r/{shop-handle}/{code}: the shop is the path's, whatever the query says.
    const handle = match[1]!.toLowerCase();
    if (!isShopHandle(handle)) return { code: null, to: null, shop: null, tags: NO_TAGS };
    return {
      code: decodeCode(match[2]),
      to: params.get("to"),
      shop: `${handle}.myshopify.com`,
      tags: readLinkTags(params),
    };
  }
  const shopParam = params.get("shop");
  const shop = isMyshopifyDomain(shopParam) ? shopParam.toLowerCase() : null;
  return { code: match ? decodeCode(match[1]!) : null, to: params.get("to"), shop, tags: readLinkTags(params) };
}

// A link is clicked many times: its parse (pure) is kept per raw URL.
const PARSED_MAX = 1000;
const PARSED_URL_MAX = 1024;
const parsedLinks = new Map<string, ParsedLink>();

function parseLink(rawUrl: string): ParsedLink {
  const known = parsedLinks.get(rawUrl);
  if (known) return known;
  const parsed = parseClickUrl(rawUrl);
  const link = { ...parsed, key: `${parsed.code ?? ""}\n${parsed.shop ?? ""}`, path: safeLandingPath(parsed.to) };
  if (rawUrl.length <= PARSED_URL_MAX) {
    if (parsedLinks.size >= PARSED_MAX) parsedLinks.clear();
    parsedLinks.set(rawUrl, link);
  }
  return link;
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
    if (code && targets.length === 1) return { target: targets[0]!, home: null, code, landings: new Map() };
    return { target: null, home };
  };

  /** The cached resolution, or a promise of a fresh one. */
  const resolve = (s: ClickStore, { code, shop, key }: ParsedLink): Resolution | Promise<Resolution> => {
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
    parsed: ParsedLink,
    r: Resolution,
  ) => {
    if (!r.target) {
      // Unknown, disabled or ambiguous: nothing recorded, one shape for all.
      if (r.home) return redirect(res, r.home);
      return sendPage(req, res, 404, "not_found");
    }
    const t = r.target;
    const path = parsed.path;
    // The redirect URL of each landing path, built once per cache entry.
    let landing = r.landings.get(path);
    if (!landing) {
      if (r.landings.size >= 100) r.landings.clear();
      landing = {
        template: redirectTemplate(t.host, path, t.param, r.code, t.discount),
        landingUrl: `https://${t.host}${path}`,
      };
      r.landings.set(path, landing);
    }
    const row = buildClickRow(
      {
        shopId: t.shopId,
        affiliateId: t.affiliateId,
        source: "link",
        landingUrl: landing.landingUrl,
        referrer: rawHeader(req.rawHeaders, "referer"),
        ip: req.socket.remoteAddress ?? null,
        userAgent: rawHeader(req.rawHeaders, "user-agent"),
        tags: parsed.tags,
      },
      key,
    );
    const url = landing.template;
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
        const parsed = parseLink(req.url!);
        const resolution = resolve(s, parsed);
        if (resolution instanceof Promise) {
          resolution
            .then((r) => answer(req, res, s, key, parsed, r))
            .catch((error: unknown) => unavailable(req, res, error));
        } else {
          answer(req, res, s, key, parsed, resolution);
        }
      } catch (error) {
        unavailable(req, res, error);
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

function unavailable(req: http.IncomingMessage, res: http.ServerResponse, error: unknown) {
  console.error("[click] lookup failed:", error);
  if (res.headersSent) return;
  sendPage(req, res, 503, "unavailable");
}

/** A page for the visitor (never bare text), in their language. */
function sendPage(req: http.IncomingMessage, res: http.ServerResponse, status: number, kind: LinkPageKind) {
  const send = (html: string) => {
    if (res.headersSent) return;
    res.writeHead(status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": Buffer.byteLength(html),
      "Cache-Control": NO_STORE,
      ...(status === 503 ? { "Retry-After": "5" } : {}),
    });
    res.end(html);
  };
  linkPage(kind, rawHeader(req.rawHeaders, "accept-language")).then(send, (error: unknown) => {
    console.error(`[click] could not render the link page: ${errorForLog(error)}`);
    // The translations could not be read: the app's fixed fallback message.
    send(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body><p>${GENERIC_ERROR_MESSAGE}</p></body></html>`,
    );
  });
}
