import { GraphQLError } from "graphql";
import { currencyExponent } from "../lib/money";
import { toMinorUnits } from "../models/shopify/money-string";
import type { ShopState, StoreState } from "./store-state";

// Helpers every resolver of the simulated Admin API shares: ids, money,
// access scopes, the search syntax of `query:` arguments, and the context a
// request runs in.

export interface AppIdentity {
  apiKey: string;
  apiSecret: string;
  // Where webhooks go (`{appUrl}/webhooks`); unset: none are sent.
  appUrl: string | null;
  title: string;
  handle: string;
  id: string;
}

export interface SimEvent {
  topic: string;
  body: string;
}

export interface ResolverContext {
  state: StoreState;
  shop: ShopState;
  app: AppIdentity;
  // The simulator's own base URL (confirmation pages).
  baseUrl: string;
  now: Date;
  events: SimEvent[];
  changed: boolean;
  searchWarnings: { path: string[]; query: string; warnings: { field: string; message: string }[] }[];
  unmodelled: string[];
}

export const gid = (type: string, id: string) => `gid://shopify/${type}/${id}`;

export function parseGid(value: unknown): { type: string; id: string } | null {
  const m = typeof value === "string" ? /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(?:\?.*)?$/.exec(value) : null;
  return m ? { type: m[1]!, id: m[2]! } : null;
}

/** Shopify's Decimal scalar: "10.0", "9.99", "10.5". */
export function decimalString(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  if (exp === 0) return `${sign}${abs}.0`;
  const whole = Math.floor(abs / 10 ** exp);
  const fraction = String(abs % 10 ** exp)
    .padStart(exp, "0")
    .replace(/0+$/, "");
  return `${sign}${whole}.${fraction || "0"}`;
}

/** The Money scalar (a variant's price): "39.00". */
export function moneyString(minor: number, currency: string): string {
  const exp = currencyExponent(currency);
  return (minor / 10 ** exp).toFixed(exp);
}

export function moneyV2(minor: number, currency: string) {
  return { __typename: "MoneyV2", amount: decimalString(minor, currency), currencyCode: currency };
}

export function minor(value: unknown, currency: string): number | null {
  try {
    const n = toMinorUnits(value as string | number, currency);
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

// Access scopes by root field (Shopify's documented requirements for the
// fields the simulator models; `write_x` implies `read_x`).
export const FIELD_SCOPES: Record<string, string[]> = {
  products: ["read_products"],
  product: ["read_products"],
  productByHandle: ["read_products"],
  productVariant: ["read_products"],
  productsCount: ["read_products"],
  collections: ["read_products"],
  collection: ["read_products"],
  customers: ["read_customers"],
  customer: ["read_customers"],
  customerByIdentifier: ["read_customers"],
  customerCreate: ["write_customers"],
  codeDiscountNode: ["read_discounts"],
  codeDiscountNodeByCode: ["read_discounts"],
  discountRedeemCodeBulkCreation: ["read_discounts"],
  discountCodeBasicCreate: ["write_discounts"],
  discountCodeBasicUpdate: ["write_discounts"],
  discountCodeFreeShippingCreate: ["write_discounts"],
  discountCodeDelete: ["write_discounts"],
  discountCodeDeactivate: ["write_discounts"],
  discountRedeemCodeBulkAdd: ["write_discounts"],
  storeCreditAccount: ["read_store_credit_accounts"],
  storeCreditAccountCredit: ["write_store_credit_account_transactions"],
  storeCreditAccountDebit: ["write_store_credit_account_transactions"],
  giftCards: ["read_gift_cards"],
  giftCard: ["read_gift_cards"],
  giftCardCreate: ["write_gift_cards"],
  webPixel: ["read_pixels"],
  webPixelCreate: ["write_pixels", "read_customer_events"],
  webPixelUpdate: ["write_pixels", "read_customer_events"],
  webPixelDelete: ["write_pixels", "read_customer_events"],
};

// The scope that lets `nodes`/`node` return an object of a type.
export const NODE_SCOPES: Record<string, string> = {
  Product: "read_products",
  ProductVariant: "read_products",
  Collection: "read_products",
  Customer: "read_customers",
  DiscountCodeNode: "read_discounts",
  DiscountRedeemCodeBulkCreation: "read_discounts",
  StoreCreditAccount: "read_store_credit_accounts",
  GiftCard: "read_gift_cards",
  WebPixel: "read_pixels",
};

export function hasScope(granted: string[], scope: string): boolean {
  return granted.includes(scope) || (scope.startsWith("read_") && granted.includes(scope.replace(/^read_/, "write_")));
}

export function accessDenied(field: string, scopes: string[]): GraphQLError {
  const required = scopes.map((s) => `\`${s}\` access scope`).join(" and ");
  return new GraphQLError(`Access denied for ${field} field. Required access: ${required}.`, {
    extensions: {
      code: "ACCESS_DENIED",
      documentation: "https://shopify.dev/api/usage/access-scopes",
      requiredAccess: `${required}.`,
    },
  });
}

export function requireScopes(ctx: ResolverContext, field: string, scopes = FIELD_SCOPES[field] ?? []) {
  const missing = scopes.filter((s) => !hasScope(ctx.shop.scopes, s));
  if (missing.length) throw accessDenied(field, scopes);
}

export interface SearchTerm {
  field: string | null;
  op: ":" | ">" | "<" | ">=" | "<=";
  value: string;
  negated: boolean;
}

/** The parts of Shopify's search syntax the simulator reads: `field:value`, `-field:value`, bare words, AND. */
export function parseSearch(query: string | null | undefined): SearchTerm[] {
  if (!query) return [];
  const terms: SearchTerm[] = [];
  const re = /(-?)(?:([a-z_]+)(:(?:>=|<=|>|<)?))?(?:"([^"]*)"|'([^']*)'|(\S+))/gi;
  for (const m of query.matchAll(re)) {
    const value = m[4] ?? m[5] ?? m[6] ?? "";
    if (!m[2] && /^(AND)$/.test(value)) continue;
    const op = (m[3]?.slice(1) || ":") as SearchTerm["op"];
    terms.push({
      field: m[2]?.toLowerCase() ?? null,
      op: op === ("" as string) ? ":" : op,
      value,
      negated: m[1] === "-",
    });
  }
  return terms;
}

export type SearchFields<T> = Record<string, (item: T, term: SearchTerm) => boolean>;

export const textMatch = (actual: string | null | undefined, wanted: string) => {
  const a = (actual ?? "").toLowerCase();
  const w = wanted.toLowerCase();
  return w.endsWith("*") ? a.startsWith(w.slice(0, -1)) : a === w;
};

export const dateMatch = (actual: string, term: SearchTerm) => {
  const a = Date.parse(actual);
  const w = Date.parse(term.value);
  if (Number.isNaN(w)) return false;
  switch (term.op) {
    case ">":
      return a > w;
    case "<":
      return a < w;
    case ">=":
      return a >= w;
    case "<=":
      return a <= w;
    default:
      return new Date(a).toISOString().slice(0, 10) === new Date(w).toISOString().slice(0, 10);
  }
};

/** Filters by a `query:` argument; unknown fields are ignored with a warning, as Shopify does. */
export function search<T>(
  ctx: ResolverContext,
  path: string,
  items: T[],
  query: string | null | undefined,
  fields: SearchFields<T>,
  freeText: (item: T) => string,
): T[] {
  const terms = parseSearch(query);
  const warnings: { field: string; message: string }[] = [];
  const usable = terms.filter((t) => {
    if (t.field === null || fields[t.field]) return true;
    warnings.push({ field: t.field, message: "Invalid search field for this query." });
    return false;
  });
  if (warnings.length) ctx.searchWarnings.push({ path: [path], query: query ?? "", warnings });
  return items.filter((item) =>
    usable.every((t) => {
      const hit = t.field ? fields[t.field]!(item, t) : freeText(item).toLowerCase().includes(t.value.toLowerCase());
      return t.negated ? !hit : hit;
    }),
  );
}

/** An error in a field's arguments that Shopify reports as a GraphQL error (data null for that field). */
export function argumentError(message: string, code = "BAD_REQUEST"): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}
