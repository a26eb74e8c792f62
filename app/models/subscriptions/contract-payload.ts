import { z } from "zod";

// Shopify's subscription_contracts/create and subscription_contracts/update
// webhook body (REST shape, snake_case). Ids may arrive as strings (see
// shopify/safe-json.ts). Only what the app keeps is required; the policies
// are checked for shape and not stored.

const id = z.union([z.string(), z.number()]).transform(String);
const policy = z.object({
  interval: z.string(),
  interval_count: z.number().int(),
  min_cycles: z.number().int().nullish(),
  max_cycles: z.number().int().nullish(),
});

export const contractPayloadSchema = z.object({
  id,
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/SubscriptionContract\/\d+$/),
  customer_id: id.nullish(),
  admin_graphql_api_customer_id: z.string().nullish(),
  origin_order_id: id.nullish(),
  admin_graphql_api_origin_order_id: z.string().nullish(),
  revision_id: id.nullish(),
  status: z.string().min(1).max(40),
  currency_code: z.string().length(3).nullish(),
  billing_policy: policy.nullish(),
  delivery_policy: policy.omit({ min_cycles: true, max_cycles: true }).nullish(),
});

export type ContractPayload = z.infer<typeof contractPayloadSchema>;
