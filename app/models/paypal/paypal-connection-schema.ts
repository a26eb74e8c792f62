import { z } from "zod";
import { msg } from "../../i18n/messages";

// PUT /api/v1/paypal/connection and the connect form at /{role}/paypal/connect.
// The client id and secret come from the merchant's own PayPal REST app
// (developer.paypal.com → Apps & Credentials). The webhook id is optional:
// without it PayPal's webhooks are refused and the status job alone follows
// each batch.
export const paypalConnectionSchema = z
  .object({
    client_id: z
      .string()
      .trim()
      .min(1, msg("Settings.Payment:paypal.validation.clientId"))
      .max(200, msg("Global:validation.textMax", { max: 200 }))
      .regex(/^[A-Za-z0-9_-]+$/, msg("Settings.Payment:paypal.validation.clientId")),
    client_secret: z
      .string()
      .trim()
      .min(1, msg("Settings.Payment:paypal.validation.clientSecret"))
      .max(200, msg("Global:validation.textMax", { max: 200 }))
      .regex(/^[A-Za-z0-9_-]+$/, msg("Settings.Payment:paypal.validation.clientSecret")),
    mode: z.enum(["sandbox", "live"], {
      errorMap: () => ({ message: msg("Settings.Payment:paypal.validation.mode") }),
    }),
    webhook_id: z
      .string()
      .trim()
      .max(100, msg("Global:validation.textMax", { max: 100 }))
      .regex(/^[A-Za-z0-9_-]*$/, msg("Settings.Payment:paypal.validation.webhookId"))
      .optional()
      .transform((v) => (v ? v : null)),
  })
  .strict();

export type PaypalConnectionInput = z.infer<typeof paypalConnectionSchema>;

/** What GET and PUT /api/v1/paypal/connection answer (the OpenAPI document's PaypalConnection). */
export const paypalConnectionViewSchema = z.object({
  connected: z.boolean(),
  mode: z.enum(["sandbox", "live"]).nullable(),
  client_id: z.string().nullable(),
  app_id: z.string().nullable().describe("PayPal's id of the REST app the credentials belong to"),
  payouts_scope: z.boolean().describe("Whether the REST app may send payouts"),
  webhook_id: z.string().nullable(),
  verified_at: z.string().datetime().nullable(),
});
