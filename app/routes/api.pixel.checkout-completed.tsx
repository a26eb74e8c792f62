import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getDb } from "~/db.server";
import { fieldErrorsFromZod, GENERIC_ERROR_MESSAGE } from "~/lib/errors";
import { parseReferralCode } from "~/models/tracking/referral-code";
import { isMyshopifyDomain } from "~/models/tracking/redirect-url";

// POST /api/pixel/checkout-completed: the Web Pixel's checkout_completed
// report (extensions/affiliate-pixel). Stored as a PixelEvent keyed by
// (shop, checkout token), so a repeated report changes nothing; attribution
// later matches it to the order by token.
//
// The pixel runs on the shop's checkout, another origin: any origin may call,
// and the preflight (OPTIONS) is answered. The body is JSON, sent as
// application/json or text/plain (a "simple" request needs no preflight).
// Malformed input is a 400 JSON error; an unknown or uninstalled shop a 404.

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "86400",
};
const MAX_BODY = 16 * 1024;

const orderGid = z.union([z.number().int().positive().safe(), z.string().trim().max(255)]).transform((value, ctx) => {
  const text = String(value);
  if (/^\d{1,20}$/.test(text)) return `gid://shopify/Order/${text}`;
  // The pixel may report an OrderIdentity GID; its number is the order's id.
  const gid = /^gid:\/\/shopify\/Order(?:Identity)?\/(\d{1,20})$/.exec(text);
  if (gid) return `gid://shopify/Order/${gid[1]}`;
  if (text === "") return null;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Must be a Shopify order id." });
  return z.NEVER;
});

const schema = z.object({
  shop: z
    .string()
    .trim()
    .toLowerCase()
    .refine((s) => isMyshopifyDomain(s), "Must be a {name}.myshopify.com domain."),
  checkout_token: z
    .string()
    .trim()
    .min(1, "Required.")
    .max(255)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Not a checkout token."),
  order_id: orderGid.nullish(),
  click_id: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/, "Not a click id.")
    .nullish(),
  ref: z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined || value.trim() === "") return null;
      const code = parseReferralCode(value);
      if (!code) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Not a referral code." });
        return z.NEVER;
      }
      return code;
    }),
});

function problem(status: number, code: string, message: string, fields?: Record<string, string>) {
  return json({ error: { code, message, ...(fields ? { fields } : {}) } }, { status, headers: CORS });
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  return problem(405, "bad_request", "Use POST.");
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return problem(405, "bad_request", "Use POST.");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY)
    return problem(413, "payload_too_large", "The request body is too large.");
  let raw: unknown;
  try {
    const text = await request.text();
    if (text.length > MAX_BODY) return problem(413, "payload_too_large", "The request body is too large.");
    raw = JSON.parse(text);
  } catch {
    return problem(400, "bad_request", "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return problem(400, "bad_request", "Some fields are not valid.", fieldErrorsFromZod(parsed.error.issues));
  const input = parsed.data;

  try {
    const db = getDb();
    const shop = await db.shop.findFirst({ where: { domain: input.shop, uninstalledAt: null }, select: { id: true } });
    if (!shop) return problem(404, "not_found", "Unknown shop.");
    // A click id only counts when it is one of this shop's clicks.
    const click = input.click_id
      ? await db.click.findFirst({ where: { shopId: shop.id, clickId: input.click_id }, select: { clickId: true } })
      : null;
    const fields = {
      orderGid: input.order_id ?? null,
      clickId: click?.clickId ?? null,
      referralCode: input.ref,
    };
    // A repeated report only fills in what the first one lacked.
    const update = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
    const where = { shopId_checkoutToken: { shopId: shop.id, checkoutToken: input.checkout_token } };
    const upsert = () =>
      db.pixelEvent.upsert({
        where,
        create: { shopId: shop.id, checkoutToken: input.checkout_token, ...fields },
        update,
      });
    try {
      await upsert();
    } catch (error) {
      // Two reports at once: the other one created the row; update it.
      if ((error as { code?: unknown }).code !== "P2002") throw error;
      await upsert();
    }
    return new Response(null, { status: 204, headers: CORS });
  } catch (error) {
    console.error("[pixel] unexpected error:", error);
    return problem(500, "internal", GENERIC_ERROR_MESSAGE);
  }
}
