// Every signal of an order set against the credited affiliate (issue 31,
// item 5): the recorded link click, the `_affiliate_ref` cart attribute, the
// Web Pixel's checkout_completed report, the affiliate discount code and the
// lifetime customer link. Stored as data on the order (Order.attributionSignals,
// JSON) and written out in the reader's language when shown. Pure: no Prisma,
// no i18next instance; the caller passes its t().

/** The signals, in the order they are listed. */
export const SIGNAL_KINDS = ["click", "cart", "pixel", "coupon", "customer"] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

/**
 * agrees: the signal names the credited affiliate; differs: it names another
 * affiliate (or an affiliate on an order credited to no one); none: the order
 * carried no such signal (or none that resolves to an affiliate).
 */
export type SignalState = "agrees" | "differs" | "none";

export interface SignalEntry {
  s: SignalKind;
  v: SignalState;
  /** The other affiliate as "Name (CODE)", only when v is "differs": the merchant's to read, never the affiliate's. */
  who?: string;
}

/** The affiliate a signal resolved to, or null when the order carried none. */
export interface SignalAffiliate {
  id: string;
  who: string;
}

export type SignalFacts = Partial<Record<SignalKind, SignalAffiliate | null>>;

function entry(s: SignalKind, found: SignalAffiliate | null | undefined, creditedId: string | null): SignalEntry {
  if (!found) return { s, v: "none" };
  if (creditedId && found.id === creditedId) return { s, v: "agrees" };
  return { s, v: "differs", who: found.who };
}

/** The record of every signal against the credited affiliate (null: credited to no one). */
export function reconcileSignals(facts: SignalFacts, creditedId: string | null): SignalEntry[] {
  return SIGNAL_KINDS.map((s) => entry(s, facts[s], creditedId));
}

/**
 * The record once a pixel report arrived after the order was recorded: only
 * the pixel's entry changes, the credit never does (ADR 056). A record the
 * order does not have yet (orders recorded before signals were kept) gets
 * only the pixel's entry, so no signal is claimed absent that was never looked at.
 */
export function withPixelSignal(
  record: SignalEntry[],
  pixel: SignalAffiliate | null,
  creditedId: string | null,
): SignalEntry[] {
  const next = entry("pixel", pixel, creditedId);
  if (record.length === 0) return [next];
  const others = record.filter((e) => e.s !== "pixel");
  return SIGNAL_KINDS.flatMap((s) => (s === "pixel" ? [next] : others.filter((e) => e.s === s)));
}

/** The stored record, or [] when there is none or it cannot be read (older orders). */
export function parseSignals(raw: string | null | undefined): SignalEntry[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.flatMap((e: unknown) => {
      if (!e || typeof e !== "object") return [];
      const { s, v, who } = e as Record<string, unknown>;
      if (!SIGNAL_KINDS.includes(s as SignalKind)) return [];
      if (v !== "agrees" && v !== "differs" && v !== "none") return [];
      return [{ s: s as SignalKind, v, ...(v === "differs" && typeof who === "string" ? { who } : {}) }];
    });
  } catch {
    return [];
  }
}

/** What an affiliate may read: that a signal pointed elsewhere, never at whom. */
export function signalsForAffiliate(record: SignalEntry[]): SignalEntry[] {
  return record.map(({ s, v }) => ({ s, v }));
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * "Signals: link click ✓, cart attribute ✓, pixel ✓, discount code — (none)"
 * in t()'s language; "" for an order with no record. `ns` is the namespace
 * holding `signals.*` (Sales for the merchant, Account.Reasons for the affiliate).
 */
export function signalsText(t: Translate, record: SignalEntry[], ns: "Sales" | "Account.Reasons"): string {
  if (record.length === 0) return "";
  const raw = { interpolation: { escapeValue: false } };
  const parts = record.map((e) => {
    const name = t(`${ns}:signals.kinds.${e.s}`, raw);
    if (e.v === "agrees") return t(`${ns}:signals.agrees`, { ...raw, name });
    if (e.v === "none") return t(`${ns}:signals.none`, { ...raw, name });
    return e.who
      ? t(`${ns}:signals.differsWho`, { ...raw, name, who: e.who })
      : t(`${ns}:signals.differs`, { ...raw, name });
  });
  return t(`${ns}:signals.line`, { ...raw, list: parts.join(t(`${ns}:signals.separator`, raw)) });
}
