// Why an order was (or was not) credited, stored as a message key with its
// values (Order.attributionReasonKey / attributionReasonValues) and written
// out in the reader's language when shown (ADR 020, attribution reason keys):
// a German admin reads "Gutgeschrieben an Anna (ANNA): ..." for the same order
// an English one reads "Credited to Anna (ANNA): ...". Orders attributed before
// reasons were keys hold English text in Order.attributionReason, shown as it is.
// Pure: no Prisma, no i18next instance; the caller passes its t().

/** The way a refused candidate reached the order. */
export type ReasonSignal = "coupon" | "link" | "pixel" | "lifetime";

/** Why one candidate was not credited (part of a "not credited" reason). */
export type ReasonNote =
  | { k: "notApproved"; signal: ReasonSignal; who: string; status: string; code?: string }
  | { k: "selfEmail"; signal: ReasonSignal; who: string; email: string; code?: string }
  | { k: "selfCustomer"; signal: ReasonSignal; who: string; code?: string }
  | { k: "clickOutside"; who: string; days: number; cookieDays: number }
  | { k: "pixelOutside"; who: string };

export interface AttributionReasonValues {
  /** The credited affiliate as "Name (CODE)". */
  who?: string;
  code?: string;
  /** Whole days between the click and the order. */
  days?: number;
  cookieDays?: number;
  /** Clicks inside the window when more than one competed, and which one won. */
  clicks?: number;
  model?: "first" | "last";
  notes?: ReasonNote[];
  /** A subscription's renewal order (ADR 047): which renewal, and when the subscription started (ISO). */
  renewal?: number;
  started?: string;
  /** The credited affiliate's status, when a renewal was refused for it. */
  status?: string;
  /** A claimed order: the staff member who approved the affiliate's claim. */
  staff?: string;
}

export const ATTRIBUTION_REASON_KEYS = {
  coupon: "Sales:attributionReason.coupon",
  couponAutoApplied: "Sales:attributionReason.couponAutoApplied",
  linkClick: "Sales:attributionReason.linkClick",
  linkCode: "Sales:attributionReason.linkCode",
  pixelClick: "Sales:attributionReason.pixelClick",
  pixelCode: "Sales:attributionReason.pixelCode",
  lifetime: "Sales:attributionReason.lifetime",
  nothing: "Sales:attributionReason.nothing",
  refused: "Sales:attributionReason.refused",
  renewal: "Sales:attributionReason.renewal",
  renewalEnded: "Sales:attributionReason.renewalEnded",
  renewalRefused: "Sales:attributionReason.renewalRefused",
  // The merchant approved the affiliate's claim of the order (models/claims).
  claimed: "Sales:attributionReason.claimed",
} as const;

export type AttributionReasonKey = (typeof ATTRIBUTION_REASON_KEYS)[keyof typeof ATTRIBUTION_REASON_KEYS];

export interface AttributionReason {
  key: AttributionReasonKey;
  values: AttributionReasonValues;
}

const KNOWN_KEYS = new Set<string>(Object.values(ATTRIBUTION_REASON_KEYS));

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** What an order row holds about its reason. */
export interface StoredReason {
  /** English text of orders attributed before reasons were keys. */
  reason?: string | null;
  reasonKey?: string | null;
  reasonValues?: string | AttributionReasonValues | null;
}

/** The stored values (JSON) of a keyed reason, or null when they cannot be read. */
export function parseReasonValues(
  raw: string | AttributionReasonValues | null | undefined,
): AttributionReasonValues | null {
  if (raw && typeof raw === "object") return raw;
  try {
    const value: unknown = JSON.parse(raw || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? (value as AttributionReasonValues) : null;
  } catch {
    return null;
  }
}

/**
 * The reason in t()'s language; `number` writes counts in the reader's
 * format and `date` a date (ISO) in the reader's zone. Older rows' English
 * text is returned as it is; "" when the row has neither (the caller says
 * something from the source alone).
 */
export function attributionReasonText(
  t: Translate,
  stored: StoredReason,
  number: (n: number) => string = String,
  date: (iso: string) => string = (iso) => iso.slice(0, 10),
): string {
  const legacy = stored.reason ?? "";
  if (!stored.reasonKey || !KNOWN_KEYS.has(stored.reasonKey)) return legacy;
  const values = parseReasonValues(stored.reasonValues);
  if (!values) return legacy;
  const raw = { interpolation: { escapeValue: false } };
  const age = (days: number) =>
    days === 0
      ? t("Sales:attributionReason.sameDay", raw)
      : t("Sales:attributionReason.daysBefore", { ...raw, count: days, days: number(days) });
  const signal = (s: ReasonSignal, code?: string) => t(`Sales:attributionReason.signals.${s}`, { ...raw, code });
  const note = (n: ReasonNote): string => {
    switch (n.k) {
      case "notApproved":
        return t("Sales:attributionReason.notes.notApproved", {
          ...raw,
          signal: signal(n.signal, n.code),
          who: n.who,
          status: t(`Sales:attributionReason.statuses.${n.status}`, { ...raw, defaultValue: n.status }),
        });
      case "selfEmail":
        return t("Sales:attributionReason.notes.selfEmail", {
          ...raw,
          signal: signal(n.signal, n.code),
          who: n.who,
          email: n.email,
        });
      case "selfCustomer":
        return t("Sales:attributionReason.notes.selfCustomer", {
          ...raw,
          signal: signal(n.signal, n.code),
          who: n.who,
        });
      case "clickOutside":
        return t("Sales:attributionReason.notes.clickOutside", {
          ...raw,
          who: n.who,
          age: age(n.days),
          cookieDays: number(n.cookieDays),
        });
      case "pixelOutside":
        return t("Sales:attributionReason.notes.pixelOutside", { ...raw, who: n.who });
      default:
        return "";
    }
  };
  const model =
    values.clicks && values.clicks > 1 && values.model
      ? t(`Sales:attributionReason.model.${values.model}`, {
          ...raw,
          count: values.clicks,
          clicks: number(values.clicks),
        })
      : "";
  return t(stored.reasonKey, {
    ...raw,
    who: values.who ?? "",
    code: values.code ?? "",
    age: values.days === undefined ? "" : age(values.days),
    cookieDays: values.cookieDays === undefined ? "" : number(values.cookieDays),
    model,
    staff: values.staff ?? "",
    notes: (values.notes ?? []).map(note).filter(Boolean).join(" "),
    renewal: values.renewal === undefined ? "" : number(values.renewal),
    started: values.started ? date(values.started) : "",
    status: values.status
      ? t(`Sales:attributionReason.statuses.${values.status}`, { ...raw, defaultValue: values.status })
      : "",
  });
}

/**
 * What an affiliate may read of their own sale's reason: the notes about
 * other candidates go (they name other affiliates and, for a refused
 * self-referral, a buyer's e-mail); the reason itself names only the
 * credited affiliate, the click's age and the cookie window.
 */
export function reasonForAffiliate(stored: StoredReason): StoredReason {
  const values = parseReasonValues(stored.reasonValues);
  if (!stored.reasonKey || !values) return { reason: stored.reason ?? "", reasonKey: null, reasonValues: null };
  const { notes: _notes, ...kept } = values;
  return { reason: "", reasonKey: stored.reasonKey, reasonValues: kept };
}

/**
 * A sentence from the order's source alone, for rows that stored no reason
 * at all (the oldest ones).
 */
export function attributionFallbackText(t: Translate, source: string, affiliateName: string | null): string {
  const raw = { interpolation: { escapeValue: false } };
  if (source === "none" || !affiliateName) return t("Sales:attributionReason.fallback.none", raw);
  const how = ["coupon", "link", "pixel", "lifetime"].includes(source) ? source : "other";
  return t(`Sales:attributionReason.fallback.${how}`, { ...raw, who: affiliateName });
}

/** The Order columns a decided reason is stored in; the English column stays "" for new orders. */
export function storedAttributionReason(reason: AttributionReason) {
  return {
    attributionReason: "",
    attributionReasonKey: reason.key,
    attributionReasonValues: JSON.stringify(reason.values),
  };
}
