import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { Resolver } from "node:dns/promises";
import { z } from "zod";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";
import { proofFound, proofRecord, type ProofRecord } from "../../lib/domain-proof";
import { AppError } from "../../lib/errors";
import { errorForLog } from "../../lib/log-text";
import { normalizeHostName } from "../../lib/portal-ways";

// A merchant's custom portal domain (Admin › Portals). Asking for a domain
// holds it for nobody: it waits in Shop.portalDomainPending until a DNS TXT
// record under it carries the shop's token (lib/domain-proof.ts); only then
// does it become Shop.portalDomain, the one the Host lookup serves. Proof
// wins over age: a shop that proves a domain another shop had takes it, and
// the other shop's claim goes back to pending (the domain changed hands).
// See docs/decisions/017.

/** TXT records at a name, each a list of strings; [] when the name has none. */
export type TxtResolver = (name: string) => Promise<string[][]>;

const ABSENT = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

/** Node's resolver, asking DNS_SERVERS when set (else the system's). */
export function dnsTxtResolver(servers = getConfig().dnsServers): TxtResolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length) resolver.setServers(servers);
  return async (name) => {
    try {
      return await resolver.resolveTxt(name);
    } catch (error) {
      if (ABSENT.has(String((error as { code?: unknown }).code))) return [];
      throw error;
    }
  };
}

// The custom-domain lookup in front of Remix (server/portal-ways.ts) caches
// answers for a few seconds; a change made here clears that cache in this
// process at once. On globalThis: the server build and the server in front
// of it load this module separately.
const globalEvents = globalThis as unknown as { __portalDomainEvents?: EventEmitter };
export const portalDomainEvents = (globalEvents.__portalDomainEvents ??= new EventEmitter());

function changed() {
  portalDomainEvents.emit("changed");
}

export type PortalDomainState = {
  host: string;
  status: "pending" | "verified";
  /** The TXT record that proves the domain (also shown once verified, for reference). */
  record: ProofRecord;
  verifiedAt: string | null;
} | null;

interface DomainColumns {
  portalDomain: string | null;
  portalDomainPending: string | null;
  portalDomainToken: string | null;
  portalDomainVerifiedAt: Date | null;
}

const domainSelect = {
  portalDomain: true,
  portalDomainPending: true,
  portalDomainToken: true,
  portalDomainVerifiedAt: true,
} as const;

const newToken = () => randomBytes(24).toString("base64url");

/** The shop's custom domain as the Portals screen shows it. */
export async function portalDomainState(shopId: string): Promise<PortalDomainState> {
  let shop: DomainColumns = await getDb().shop.findUniqueOrThrow({ where: { id: shopId }, select: domainSelect });
  const host = shop.portalDomain ?? shop.portalDomainPending;
  if (!host) return null;
  if (!shop.portalDomainToken) {
    // Domains from before verification existed have no token yet.
    shop = await getDb().shop.update({
      where: { id: shopId },
      data: { portalDomainToken: newToken() },
      select: domainSelect,
    });
  }
  return {
    host,
    status: shop.portalDomain ? "verified" : "pending",
    record: proofRecord(host, shop.portalDomainToken!),
    verifiedAt: shop.portalDomain ? (shop.portalDomainVerifiedAt?.toISOString() ?? null) : null,
  };
}

/**
 * Asks for a custom domain (or with "" gives it up). The domain serves
 * nothing until verifyPortalDomain finds the shop's TXT record; the shop's
 * previous domain stops serving now.
 */
export async function setPortalDomain(shopId: string, raw: string): Promise<PortalDomainState> {
  if (raw.trim() === "") {
    await getDb().shop.update({
      where: { id: shopId },
      data: { portalDomain: null, portalDomainPending: null, portalDomainVerifiedAt: null },
    });
    changed();
    return null;
  }
  const host = normalizeHostName(raw);
  if (!host) {
    throw new AppError("validation_failed", "Some fields are not valid.", {
      fields: { portalDomain: "Enter a domain name such as affiliates.yourstore.com (not a myshopify.com domain)." },
    });
  }
  if (host === new URL(getConfig().appUrl).hostname) {
    throw new AppError("conflict", "This domain is already in use.", {
      fields: { portalDomain: "This is the app's own domain; enter a domain of your store." },
    });
  }
  const shop = await getDb().shop.findUniqueOrThrow({ where: { id: shopId }, select: domainSelect });
  if (shop.portalDomain !== host) {
    await getDb().shop.update({
      where: { id: shopId },
      data: {
        portalDomain: null,
        portalDomainVerifiedAt: null,
        portalDomainPending: host,
        portalDomainToken: shop.portalDomainToken ?? newToken(),
      },
    });
    changed();
  }
  return portalDomainState(shopId);
}

/**
 * Looks for the shop's TXT record and, when it is there, makes the pending
 * domain the shop's portal domain (taking it from a shop that had it).
 * Throws AppError when the record is missing (422) or DNS cannot answer (503).
 */
export async function verifyPortalDomain(
  shopId: string,
  resolveTxt: TxtResolver = dnsTxtResolver(),
): Promise<PortalDomainState> {
  const state = await portalDomainState(shopId);
  if (!state) throw new AppError("bad_request", "Enter a domain and save it before verifying it.");
  if (state.status === "verified") return state;
  let records: string[][];
  try {
    records = await resolveTxt(state.record.name);
  } catch (error) {
    console.warn(`[portal] TXT lookup of ${state.record.name} failed: ${errorForLog(error).split("\n")[0]}`);
    throw new AppError("unavailable", "The DNS lookup did not answer. Try again in a few minutes.", {
      headers: { "Retry-After": "60" },
    });
  }
  if (!proofFound(records, state.record.value)) {
    throw new AppError(
      "validation_failed",
      `No TXT record "${state.record.value}" was found at ${state.record.name} yet. DNS changes can take a while to show; try again in a few minutes.`,
    );
  }
  const host = state.host;
  await getDb().$transaction(async (tx) => {
    // Whoever had the domain no longer proves it: back to pending for them.
    const previous = await tx.shop.findFirst({
      where: { portalDomain: host, id: { not: shopId } },
      select: { id: true, portalDomainToken: true },
    });
    if (previous) {
      await tx.shop.update({
        where: { id: previous.id },
        data: {
          portalDomain: null,
          portalDomainVerifiedAt: null,
          portalDomainPending: host,
          portalDomainToken: previous.portalDomainToken ?? newToken(),
        },
      });
    }
    // Still the domain this verification was for (not changed meanwhile).
    const updated = await tx.shop.updateMany({
      where: { id: shopId, portalDomainPending: host },
      data: { portalDomain: host, portalDomainPending: null, portalDomainVerifiedAt: new Date() },
    });
    if (updated.count !== 1) throw new AppError("conflict", "The domain was changed meanwhile. Verify it again.");
  });
  changed();
  return portalDomainState(shopId);
}

/** The Portals screen's domain form: save (the default) or verify. */
export const portalDomainFormSchema = z.object({
  intent: z.enum(["save", "verify"]).default("save"),
  portalDomain: z.string().max(300).default(""),
});

export function portalDomainAction(shopId: string, input: z.infer<typeof portalDomainFormSchema>) {
  return input.intent === "verify" ? verifyPortalDomain(shopId) : setPortalDomain(shopId, input.portalDomain);
}
