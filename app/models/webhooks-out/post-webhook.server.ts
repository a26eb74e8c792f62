import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPrivateAddress } from "./address-guard";

// One HTTP POST of a webhook: no redirects followed, a time limit on the
// whole exchange, only the start of the answer read. The host name is
// resolved here and every address checked (address-guard.ts); the socket
// then connects to a checked address, never to a second DNS answer.

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Bytes of the answer read at most; the rest is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Characters of the answer kept in the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 1000;

export interface PostResult {
  statusCode: number | null;
  ok: boolean;
  excerpt: string;
  error: string | null;
  durationMs: number;
}

export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a private, loopback, link-local or metadata address`);
    this.name = "RefusedAddressError";
  }
}

function bareHost(hostname: string) {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** A DNS lookup for http.request that refuses private addresses (unless allowed). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(new RefusedAddressError(hostname, bad.address), "", 0);
      if (list.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Every address of a URL's host, or the reason it may not be used (registration check). */
export async function checkHostAddresses(url: URL, allowPrivate: boolean): Promise<string | null> {
  const host = bareHost(url.hostname);
  if (isIP(host)) return !allowPrivate && isPrivateAddress(host) ? new RefusedAddressError(host, host).message : null;
  const addresses = await new Promise<LookupAddress[] | Error>((resolve) =>
    dnsLookup(host, { all: true }, (error, list) => resolve(error ?? list)),
  );
  if (addresses instanceof Error)
    return `${host} could not be resolved (${(addresses as NodeJS.ErrnoException).code ?? addresses.message})`;
  if (addresses.length === 0) return `${host} has no address`;
  const bad = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
  return bad ? new RefusedAddressError(host, bad.address).message : null;
}

export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostResult> {
  const started = Date.now();
  const done = (r: Omit<PostResult, "durationMs">): PostResult => ({ ...r, durationMs: Date.now() - started });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(done({ statusCode: null, ok: false, excerpt: "", error: "not a valid URL" }));
    }
    const host = bareHost(target.hostname);
    if (isIP(host) && !options.allowPrivate && isPrivateAddress(host))
      return resolve(
        done({ statusCode: null, ok: false, excerpt: "", error: new RefusedAddressError(host, host).message }),
      );
    const client = target.protocol === "https:" ? https : target.protocol === "http:" ? http : null;
    if (!client) return resolve(done({ statusCode: null, ok: false, excerpt: "", error: "only http and https URLs" }));
    let settled = false;
    const finish = (r: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const request = client.request(
      target,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "affiliate-app-webhooks/1",
        },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const statusCode = response.statusCode ?? 0;
        const conclude = () => {
          const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_EXCERPT_CHARS);
          // Standard Webhooks: any 2xx is a success; a redirect is not followed and counts as a failure.
          const ok = statusCode >= 200 && statusCode < 300;
          finish({ statusCode, ok, excerpt, error: ok ? null : `HTTP ${statusCode}` });
        };
        response.on("data", (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) {
            conclude();
            response.destroy();
          }
        });
        response.on("end", conclude);
        // Cut off by the time limit or the server: what arrived is the answer.
        response.on("error", conclude);
        response.on("close", conclude);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${Math.round((options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000)} s`));
    }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    request.on("error", (error) =>
      finish({ statusCode: null, ok: false, excerpt: "", error: error.message.slice(0, 500) }),
    );
    request.end(body);
  });
}
