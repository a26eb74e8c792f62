import { z } from "zod";
import { msg } from "../../i18n/messages";
import { DIGEST_MODES } from "./mail-schedule";

// The forms of the Notifications screen, shared by the route and the page.

const checkbox = z.preprocess((v) => v === true || v === "true" || v === "on", z.boolean());

export const templateSchema = z.object({
  subject: z.string().trim().min(1, msg("Mails:editor.subjectRequired")).max(300),
  body: z.string().min(1, msg("Mails:editor.bodyRequired")).max(20_000),
  enabled: checkbox.default(true),
});
export type TemplateInput = z.infer<typeof templateSchema>;

export const mailSettingsSchema = z.object({
  fromName: z.string().trim().max(100).default(""),
  replyTo: z
    .union([z.literal(""), z.string().trim().toLowerCase().email(msg("Global:validation.email")).max(254)])
    .default(""),
});
export type MailSettingsInput = z.infer<typeof mailSettingsSchema>;

/** The merchant digest: daily, weekly or off (for the whole shop). */
export const digestSchema = z.object({ digest: z.enum(DIGEST_MODES) });

/** The merchant e-mails the signed-in user receives: notification keys, comma-separated (unknown ones ignored). */
export const myMailSchema = z.object({
  kinds: z
    .string()
    .max(2000)
    .transform((v) =>
      v
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    ),
});
