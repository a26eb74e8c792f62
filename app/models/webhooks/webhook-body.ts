import { z } from "zod";
import { parseShopifyJson } from "../shopify/safe-json";
import { isMyshopifyDomain } from "../tracking/redirect-url";

// What a webhook body says about the shop it belongs to. Shopify signs only
// the body: the topic, shop and webhook-id headers can be replayed with any
// captured body. So the shop the body names must be the shop in
// X-Shopify-Shop-Domain (docs/decisions/017). Pure: the webhook door
// (server/webhook-handler.ts) and the tests use it.

const id = z.union([z.string(), z.number()]);

const customerRef = z
  .object(
    { id: id.nullish(), email: z.string().max(320).nullish() },
    { required_error: "the body has no customer", invalid_type_error: "customer is not an object" },
  )
  .refine((c) => (c.id !== undefined && c.id !== null && c.id !== "") || !!c.email, {
    message: "the customer has neither an id nor an e-mail",
  });

const shopDomain = z.string({
  required_error: "the body has no shop_domain",
  invalid_type_error: "shop_domain is not a string",
});

export const customersRedactSchema = z.object({
  shop_domain: shopDomain,
  customer: customerRef,
  orders_to_redact: z.array(id).nullish(),
});

export const customersDataRequestSchema = z.object({
  shop_domain: shopDomain,
  customer: customerRef,
  orders_requested: z.array(id).nullish(),
  data_request: z.object({ id: id.nullish() }).nullish(),
});

export const shopRedactSchema = z.object({ shop_domain: shopDomain });

// The shop itself; Shopify's published sample leaves the domains empty, a
// real uninstall names the shop.
export const appUninstalledSchema = z.object({
  myshopify_domain: z.string({
    required_error: "the body names no shop (myshopify_domain)",
    invalid_type_error: "the body names no shop (myshopify_domain)",
  }),
});

/** Topics whose body is read whole at the door: rare, and each names its shop. */
const DOOR_SCHEMAS: Record<string, z.ZodType<{ shop_domain: string } | { myshopify_domain: string }>> = {
  "app/uninstalled": appUninstalledSchema,
  "customers/redact": customersRedactSchema,
  "customers/data_request": customersDataRequestSchema,
  "shop/redact": shopRedactSchema,
};

const ORDER_TOPICS = new Set(["orders/create", "orders/paid", "orders/cancelled"]);

/** A short account of a zod failure, for the answer and one log line (no payload values). */
export function describeIssues(topic: string, error: z.ZodError): string {
  const issues = error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  return `Malformed ${topic} body: ${issues.join("; ")}${more}.`;
}

export type BodyShop =
  /** domain: a myshopify.com domain the body names; storefront: another host it names (an order on the shop's own domain). */
  { ok: true; domain: string | null; storefront: string | null } | { ok: false; message: string };

const NAMES_NOTHING: BodyShop = { ok: true, domain: null, storefront: null };

// Order bodies are the busy stream: parsing one whole costs ~30 µs per 10 kB,
// ten times this scan. The key can only match as a key: inside a JSON string
// every quote is escaped, so `"order_status_url"` followed by a colon is
// always a key token; orders have it at the top level only.
const STATUS_URL = /"order_status_url"\s*:\s*("(?:[^"\\]|\\.)*")/;

function orderStatusHost(text: string): string | null {
  const match = STATUS_URL.exec(text);
  if (!match) return null;
  try {
    return new URL(JSON.parse(match[1]!) as string).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * The shop a verified body names. Orders name it by their order status URL
 * (on the myshopify.com domain or the shop's own storefront domain); the
 * privacy webhooks by shop_domain; app/uninstalled by myshopify_domain.
 * Refunds and products name no shop (their ids are Shopify-wide, and each
 * is looked up within the header's shop). Bodies of the topics read whole at
 * the door that do not parse are refused here.
 */
export function bodyShop(topic: string, text: string): BodyShop {
  if (ORDER_TOPICS.has(topic)) {
    const host = orderStatusHost(text);
    if (!host) return NAMES_NOTHING;
    return isMyshopifyDomain(host)
      ? { ok: true, domain: host, storefront: null }
      : { ok: true, domain: null, storefront: host };
  }
  const schema = DOOR_SCHEMAS[topic];
  if (!schema) return NAMES_NOTHING;
  let body: unknown;
  try {
    body = parseShopifyJson(text);
  } catch {
    return { ok: false, message: `Malformed ${topic} body: it is not valid JSON.` };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) return { ok: false, message: describeIssues(topic, parsed.error) };
  const named = "shop_domain" in parsed.data ? parsed.data.shop_domain : parsed.data.myshopify_domain;
  return { ok: true, domain: named.trim().toLowerCase(), storefront: null };
}
