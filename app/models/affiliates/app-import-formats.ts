import { legacyReferralCode, parseReferralCode } from "../tracking/referral-code";

// Reading other affiliate apps' exports (ADR 048): which columns each one's
// file has, and how one of its rows becomes a row of this app's own CSV
// (csv-columns.ts) plus the affiliate's old link code. Pure, no database and
// no CSV parser: the browser imports the format names and the server's
// reader (app-import-csv.server.ts) does the parsing.
//
// Column names are matched in lower case with spaces, "_" and "-" alike, so
// "First Name", "first_name" and "first-name" are one column. Columns not
// listed here are ignored (exports carry many: clicks, earnings, payment
// details), never refused.

export const IMPORT_FORMATS = ["csv", "uppromote", "goaffpro", "refersion", "collabs"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export type AppFormat = Exclude<ImportFormat, "csv">;
export const APP_FORMATS = IMPORT_FORMATS.filter((f): f is AppFormat => f !== "csv");

/** The other apps by their own names (not translated). */
export const APP_NAMES: Record<AppFormat, string> = {
  uppromote: "UpPromote",
  goaffpro: "GoAffPro",
  refersion: "Refersion",
  collabs: "Shopify Collabs",
};

/** What this app reads from another app's row. */
export type AppField = "email" | "first_name" | "last_name" | "name" | "status" | "code" | "link" | "coupons";

export interface AppFormatSpec {
  /** The header names of each field, normalized (headerKey). */
  columns: Partial<Record<AppField, readonly string[]>>;
  /** The query parameters of its affiliate links that hold the affiliate's code. */
  linkParams: readonly string[];
  /** The old code is a discount code as well (Collabs: creators share one code). */
  codeIsCoupon?: boolean;
}

export const APP_FORMAT_SPECS: Record<AppFormat, AppFormatSpec> = {
  // Import sample: first_name, last_name, email; the affiliate list shows
  // status (Pending / Active / Inactive), affiliate link (?sca_ref=) and
  // coupon. Its program is not read: programs are not campaigns here, and
  // imported affiliates join the default campaign.
  uppromote: {
    columns: {
      email: ["email", "affiliate email"],
      first_name: ["first name"],
      last_name: ["last name"],
      name: ["name", "affiliate name"],
      status: ["status"],
      link: ["affiliate link", "referral link", "link"],
      code: ["affiliate id", "sca ref", "referral code"],
      coupons: ["coupon", "coupons", "coupon code", "coupon codes"],
    },
    linkParams: ["sca_ref"],
  },
  // Referral links end in ?ref={referral code}; affiliates may have coupons.
  goaffpro: {
    columns: {
      email: ["email"],
      first_name: ["first name"],
      last_name: ["last name"],
      name: ["name"],
      status: ["status"],
      code: ["ref code", "referral code", "ref"],
      link: ["referral link", "ref link", "link"],
      coupons: ["coupon", "coupons", "coupon code", "coupon codes"],
    },
    linkParams: ["ref"],
  },
  // Bulk-import template: First Name, Last Name, Email Address, Offer ID,
  // Coupon (and password, PayPal e-mail, country, state: not read). Links are
  // ?rfsn={id}.{hash}.
  refersion: {
    columns: {
      email: ["email address", "email"],
      first_name: ["first name"],
      last_name: ["last name"],
      name: ["name"],
      status: ["status"],
      code: ["affiliate code", "rfsn"],
      link: ["referral link", "affiliate link", "link"],
      coupons: ["coupon", "coupons", "coupon code"],
    },
    linkParams: ["rfsn"],
  },
  // Invite template: the creator's e-mail and affiliate code (a discount code
  // Shopify applies through the creator's link).
  collabs: {
    columns: {
      email: ["email", "email address", "creator email"],
      first_name: ["first name"],
      last_name: ["last name"],
      name: ["name", "creator name", "creator"],
      code: ["affiliate code", "discount code", "code"],
      coupons: ["coupon", "coupons"],
    },
    linkParams: [],
    codeIsCoupon: true,
  },
};

/** A header cell as the specs list it: lower case, spaces, "_" and "-" alike, trimmed. */
export function headerKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim();
}

/** Which column of the header holds each field (the first match wins). */
export function locateColumns(format: AppFormat, header: readonly string[]): Partial<Record<AppField, number>> {
  const keys = header.map(headerKey);
  const found: Partial<Record<AppField, number>> = {};
  for (const [field, names] of Object.entries(APP_FORMAT_SPECS[format].columns) as [AppField, readonly string[]][]) {
    const index = keys.findIndex((k) => names.includes(k));
    if (index !== -1) found[field] = index;
  }
  return found;
}

/** The fields a header must have: an e-mail and a name (first name or full name). */
export function missingColumns(found: Partial<Record<AppField, number>>): AppField[] {
  const missing: AppField[] = [];
  if (found.email === undefined) missing.push("email");
  if (found.first_name === undefined && found.name === undefined) missing.push("first_name");
  return missing;
}

// Status words of the apps, and what they are here. Anything else: the campaign decides.
const STATUS_OF: Record<string, string> = {
  active: "approved",
  approved: "approved",
  enabled: "approved",
  pending: "pending",
  "pending approval": "pending",
  inactive: "inactive",
  disabled: "inactive",
  blocked: "inactive",
  deactivated: "inactive",
  denied: "denied",
  rejected: "denied",
  declined: "denied",
};

/** The code an affiliate link carries in one of the parameters, if it is a link at all. */
export function codeFromLink(link: string, params: readonly string[]): string | null {
  const text = link.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  for (const param of params) {
    const value = url.searchParams.get(param);
    if (value?.trim()) return value.trim();
  }
  return null;
}

/** One row as this app's own CSV columns, and the affiliate's old link code. */
export interface MappedRow {
  values: {
    email: string;
    first_name: string;
    last_name: string;
    status: string;
    campaign: string;
    referral_code: string;
    coupon_codes: string;
  };
  /**
   * The old code as an alias (legacyReferralCode), when it cannot be the
   * referral code itself; null when the old code is the referral code or there is none.
   */
  alias: string | null;
  /** The row had an old code that cannot be kept in any form (the report says so). */
  oldCodeLost: string | null;
}

/** Maps a row of another app's export; cell(field) is the row's text in that field's column ("" when absent). */
export function mapAppRow(format: AppFormat, cell: (field: AppField) => string): MappedRow {
  const spec = APP_FORMAT_SPECS[format];
  let first = cell("first_name").trim();
  let last = cell("last_name").trim();
  if (!first && !last) {
    const [head = "", ...rest] = cell("name").trim().split(/\s+/);
    first = head;
    last = rest.join(" ");
  }
  const oldCode = cell("code").trim() || codeFromLink(cell("link"), spec.linkParams) || "";
  const coupons = cell("coupons")
    .split(/[\s,;|]+/)
    .filter(Boolean)
    .map((c) => c.toUpperCase());
  if (spec.codeIsCoupon && oldCode && !coupons.includes(oldCode.toUpperCase())) coupons.unshift(oldCode.toUpperCase());

  // The old code is the referral code when it is a valid one; otherwise the
  // import makes a code from the name and keeps the old one as an alias.
  const asCode = oldCode ? parseReferralCode(oldCode) : null;
  const alias = oldCode && !asCode ? legacyReferralCode(oldCode) : null;
  return {
    values: {
      email: cell("email").trim(),
      first_name: first,
      last_name: last,
      status: STATUS_OF[headerKey(cell("status"))] ?? "",
      campaign: "",
      referral_code: asCode ?? "",
      coupon_codes: [...new Set(coupons)].join(" "),
    },
    alias,
    oldCodeLost: oldCode && !asCode && !alias ? oldCode : null,
  };
}
