import { z } from "zod";
import { parseTagList } from "../affiliates/affiliate-tags";
import { NOTE_MAX } from "../commissions/adjustment";

// The app's Shopify Flow actions: each one's handle (its extension's
// `handle`, extensions/flow-action-*/shopify.extension.toml, whose
// runtime_url is /flow/actions/{handle}), its fields, and the schema of the
// request Flow sends (the action runtime's envelope around the merchant's
// properties). tests/unit/shopify-toml-files.test.ts holds the TOML files to
// this table. Messages are English, like the REST API's (ADR 020): Flow
// shows them to the merchant in the workflow's run log.

export type FlowActionFieldType = "single_line_text_field" | "multi_line_text_field" | "email" | "number_decimal";

export interface FlowActionField {
  key: string;
  name: string;
  type: FlowActionFieldType;
  required: boolean;
  description: string;
}

const f = (key: string, name: string, type: FlowActionFieldType, required: boolean, description: string) => ({
  key,
  name,
  type,
  required,
  description,
});

const AFFILIATE_REF = f(
  "affiliate",
  "Affiliate",
  "single_line_text_field",
  true,
  "The affiliate's ID, e-mail address or referral code",
);

export const FLOW_ACTIONS = {
  "create-affiliate": {
    name: "Create affiliate",
    description: "Adds an affiliate to the affiliate program",
    fields: [
      f("email", "E-mail", "email", true, "The affiliate's e-mail address"),
      f("first_name", "First name", "single_line_text_field", true, "The affiliate's first name"),
      f("last_name", "Last name", "single_line_text_field", false, "The affiliate's last name"),
      f("campaign_id", "Campaign ID", "single_line_text_field", false, "Empty: the shop's default campaign"),
      f("status", "Status", "single_line_text_field", false, "pending or approved; empty: as the campaign says"),
    ],
  },
  "approve-affiliate": {
    name: "Approve affiliate",
    description: "Approves a pending, denied or inactive affiliate",
    fields: [AFFILIATE_REF],
  },
  "deny-affiliate": {
    name: "Deny affiliate",
    description: "Denies a pending affiliate",
    fields: [AFFILIATE_REF],
  },
  "adjust-commission": {
    name: "Adjust affiliate commission",
    description: "Adds or takes off an amount of an affiliate's commission on an order, with a note the affiliate sees",
    fields: [
      f("order", "Order", "single_line_text_field", true, "The order's ID, GraphQL ID or name (such as #1001)"),
      f("amount", "Amount", "number_decimal", true, "In the shop's currency; negative to take off"),
      f("note", "Note", "multi_line_text_field", true, "Why: shown to the affiliate and on the sale"),
      f(
        "affiliate",
        "Affiliate",
        "single_line_text_field",
        false,
        "ID, e-mail or referral code; empty: the affiliate the order is credited to",
      ),
    ],
  },
  "tag-affiliate": {
    name: "Tag affiliate",
    description: "Adds tags to an affiliate, or removes them",
    fields: [
      AFFILIATE_REF,
      f("add_tags", "Tags to add", "single_line_text_field", false, "Comma-separated, such as vip, tiktok"),
      f("remove_tags", "Tags to remove", "single_line_text_field", false, "Comma-separated"),
    ],
  },
} as const satisfies Record<string, { name: string; description: string; fields: FlowActionField[] }>;

export type FlowActionHandle = keyof typeof FLOW_ACTIONS;
export const FLOW_ACTION_HANDLES = Object.keys(FLOW_ACTIONS) as FlowActionHandle[];

export function isFlowActionHandle(value: string): value is FlowActionHandle {
  return Object.hasOwn(FLOW_ACTIONS, value);
}

/** The action runtime's request body (shopify.dev, "Create Flow action endpoints"). */
export const flowActionRequestSchema = z.object({
  shop_id: z.union([z.string(), z.number()]).transform(String),
  shopify_domain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "shopify_domain must be a myshopify.com domain"),
  action_run_id: z.string().trim().min(1, "action_run_id is required").max(200),
  handle: z.string().max(100).optional(),
  action_definition_id: z.string().max(200).optional(),
  properties: z.record(z.unknown()).default({}),
});
export type FlowActionRequest = z.infer<typeof flowActionRequestSchema>;

const text = (what: string, max: number) =>
  z
    .string({ required_error: `${what} is required`, invalid_type_error: `${what} must be text` })
    .trim()
    .max(max, `${what} is longer than ${max} characters`);

const affiliateRef = text("affiliate", 254).min(1, "affiliate is required");

export const FLOW_ACTION_PROPERTIES = {
  "create-affiliate": z.object({
    email: text("email", 254).toLowerCase().email("email is not an e-mail address"),
    first_name: text("first_name", 100).min(1, "first_name is required"),
    last_name: text("last_name", 100).default(""),
    campaign_id: text("campaign_id", 200)
      .optional()
      .transform((v) => v || undefined),
    status: text("status", 20)
      .optional()
      .refine((v) => !v || v === "pending" || v === "approved", "status must be pending, approved or empty")
      .transform((v) => (v ? (v as "pending" | "approved") : undefined)),
  }),
  "approve-affiliate": z.object({ affiliate: affiliateRef }),
  "deny-affiliate": z.object({ affiliate: affiliateRef }),
  "adjust-commission": z.object({
    order: text("order", 200).min(1, "order is required"),
    // Flow sends a number_decimal as a JSON number; a string is read too. Minor units come later, in the order's currency.
    amount: z.union([z.number(), z.string()], {
      errorMap: (_issue, ctx) => ({
        message: ctx.data === undefined ? "amount is required" : "amount must be a number",
      }),
    }),
    note: text("note", NOTE_MAX).min(1, "note is required"),
    affiliate: text("affiliate", 254)
      .optional()
      .transform((v) => v || undefined),
  }),
  "tag-affiliate": z
    .object({
      affiliate: affiliateRef,
      add_tags: text("add_tags", 2_000).optional(),
      remove_tags: text("remove_tags", 2_000).optional(),
    })
    .transform((p, ctx) => {
      const add = parseTagList(p.add_tags, "add_tags");
      const remove = parseTagList(p.remove_tags, "remove_tags");
      for (const r of [add, remove])
        if (!r.ok) {
          ctx.addIssue({ code: "custom", message: r.problem });
          return z.NEVER;
        }
      if (!add.ok || !remove.ok) return z.NEVER;
      if (add.tags.length + remove.tags.length === 0) {
        ctx.addIssue({ code: "custom", message: "add_tags or remove_tags must name a tag" });
        return z.NEVER;
      }
      return { affiliate: p.affiliate, add: add.tags, remove: remove.tags };
    }),
} satisfies Record<FlowActionHandle, z.ZodTypeAny>;

/** The first problem of a zod failure, as one line ("email: email is not an e-mail address"). */
export function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "the request is not valid";
  const path = issue.path.join(".");
  return path && !issue.message.startsWith(String(issue.path.at(-1))) ? `${path}: ${issue.message}` : issue.message;
}

/** Where an affiliate reference looks: an e-mail, a referral code (upper-cased), or an id. */
export function affiliateLookup(ref: string): { email: string } | { referralCode: string; id: string } {
  const value = ref.trim();
  if (value.includes("@")) return { email: value.toLowerCase() };
  return { referralCode: value.toUpperCase(), id: value };
}

/** Where an order reference looks, in order: its GraphQL id, a numeric id, its name, the app's id. */
export function orderLookup(ref: string): ({ shopifyGid: string } | { name: string } | { id: string })[] {
  const value = ref.trim();
  if (/^gid:\/\/shopify\/Order\/\d+$/.test(value)) return [{ shopifyGid: value }];
  if (/^\d+$/.test(value))
    return [{ shopifyGid: `gid://shopify/Order/${value}` }, { name: `#${value}` }, { name: value }];
  return [{ name: value }, ...(value.startsWith("#") ? [] : [{ name: `#${value}` }]), { id: value }];
}
