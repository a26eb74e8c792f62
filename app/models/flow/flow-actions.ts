import { z } from "zod";

// The app's Shopify Flow actions: each one's handle (its extension's
// `handle`, extensions/flow-action-*/shopify.extension.toml, whose
// runtime_url is /flow/actions/{handle}), its fields, and the schema of the
// request Flow sends (the action runtime's envelope around the merchant's
// properties). tests/unit/shopify-toml-files.test.ts holds the TOML files to
// this table. Messages are English, like the REST API's (ADR 020): Flow
// shows them to the merchant in the workflow's run log.

export type FlowActionFieldType = "single_line_text_field" | "email";

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
