import type { ShopDb } from "../../db/shop-db.server";
import { msg } from "../../i18n/messages";
import { AppError } from "../../lib/errors";
import { notifyJobsEnqueued } from "../jobs/enqueue.server";
import { queueEmail } from "../mail/outbox.server";
import { isNotificationKey, NOTIFICATIONS, notificationDef, type NotificationKey } from "./catalogue";
import {
  brandingOf,
  composeEmail,
  defaultTemplate,
  prepareNotification,
  shopLanguage,
  templateInForce,
} from "./compose-notification.server";
import { saveShopSetting } from "../settings/save-shop-setting.server";
import { shopSettingsObject } from "../settings/shop-settings";
import { digestModeOf, type DigestMode } from "./mail-schedule";
import { scheduleDailyMail } from "./scheduled-mail.server";
import { consumeTemplateRenders } from "./template-rate-limit.server";
import { checkTemplateInThread, TemplateLimitError } from "./template-threads.server";
import { nestValues } from "./catalogue";
import { merchantSample } from "./merchant-sample";
import { getConfig } from "../../config.server";
import { shopHandle } from "../../lib/affiliate-links";
import { payoutSentence, portalUrl } from "./notification-values.server";
import type { LanguageInfo } from "../../i18n/language-table";
import type { MailSettingsInput, TemplateInput } from "./notification-schemas";

// The Notifications screen (/{role}/mails): the list with on/off, the
// editor (save refuses a template that does not parse, naming the line),
// live preview and test e-mail with sample data, reset to the default, the
// delivery log and the e-mail viewer (the in-app outbox of a demo without
// SMTP_URL). Previews are in the shop's language.

export const LOG_PAGE_SIZE = 25;

function requireKey(key: string): NotificationKey {
  if (!isNotificationKey(key)) throw new AppError("not_found", "No notification with this name.");
  return key;
}

async function shopOf(db: ShopDb) {
  return db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: {
      id: true,
      name: true,
      language: true,
      settings: true,
      timezone: true,
      url: true,
      domain: true,
      portalDomain: true,
      currency: true,
    },
  });
}

/** A kind's sample values, with the merchant's own shop, links and currency (merchant-sample.ts). */
function sampleFor(shop: Awaited<ReturnType<typeof shopOf>>, key: NotificationKey, language: LanguageInfo) {
  const sample = merchantSample(notificationDef(key).variables, {
    name: shop.name,
    url: shop.url,
    portalUrl: portalUrl(shop),
    shortLinkBase: `${getConfig().appUrl.replace(/\/+$/, "")}/r/${encodeURIComponent(shopHandle(shop.domain))}/`,
    currency: shop.currency,
    languageTag: language.tag,
  });
  // A whole translated sentence: the catalogue's English sample would show in every language.
  if ("payout.sentence" in sample) {
    sample["payout.sentence"] = payoutSentence(language, { method: "paypal", amount: sample["payout.amount"] ?? "" });
  }
  return sample;
}

export async function listNotifications(db: ShopDb) {
  const shop = await shopOf(db);
  const language = shopLanguage(shop.language);
  const rows = await db.notificationTemplate.findMany({ where: { shopId: shop.id }, take: 100 });
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return {
    notifications: NOTIFICATIONS.map((def) => {
      const row = byKey.get(def.key);
      return {
        key: def.key,
        audience: def.audience,
        transactional: def.transactional,
        // Transactional mail (invites, password resets) is always sent.
        enabled: def.transactional || (row?.enabled ?? true),
        edited: Boolean(row?.subject ?? row?.body),
        subject: row?.subject ?? defaultTemplate(def.key, language).subject,
      };
    }),
    settings: mailSettingsOf(shop.settings),
    digest: digestModeOf(shopSettingsObject(shop.settings)),
  };
}

/** Daily, weekly or off: the shop's digest (its chain of daily runs is made sure of). */
export async function saveDigestMode(db: ShopDb, mode: DigestMode) {
  const shop = await db.shop.findUniqueOrThrow({
    where: { id: db.$shopId },
    select: { settings: true, timezone: true },
  });
  await db.$transaction(async (tx) => {
    await saveShopSetting(tx, db.$shopId, "mailDigest", mode);
    await scheduleDailyMail(tx, db.$shopId, shop.timezone);
  });
  notifyJobsEnqueued();
  return { digest: mode };
}

export async function notificationEditor(db: ShopDb, keyParam: string) {
  const key = requireKey(keyParam);
  const shop = await shopOf(db);
  const language = shopLanguage(shop.language);
  const def = notificationDef(key);
  const template = await templateInForce(db, shop.id, key, language);
  return {
    key,
    audience: def.audience,
    transactional: def.transactional,
    enabled: def.transactional || template.enabled,
    edited: template.edited,
    subject: template.subject,
    body: template.body,
    defaults: defaultTemplate(key, language),
    variables: Object.entries(sampleFor(shop, key, language)).map(([name, sample]) => ({ name, sample })),
  };
}

/** The merchant's message for a render a limit stopped (a field error), or the refusal to throw. */
function limitProblem(error: TemplateLimitError): string {
  if (error.limit === "busy")
    throw new AppError("unavailable", msg("Mails:editor.busy"), { headers: { "Retry-After": "2" } });
  return error.limit === "time" ? msg("Mails:editor.tooSlow", { ms: error.ms }) : msg("Mails:editor.tooLarge");
}

/**
 * Both parts checked against the sample values (in a template thread, with
 * its limits); the first problem as a field error with its line. Counts one
 * render against the shop's limit first.
 */
async function assertTemplate(shopId: string, key: NotificationKey, input: TemplateInput) {
  await consumeTemplateRenders("render", shopId);
  const sample = nestValues(notificationDef(key).variables);
  const fields: Record<string, string> = {};
  for (const field of ["subject", "body"] as const) {
    try {
      const problem = await checkTemplateInThread(input[field], sample);
      if (problem) {
        fields[field] = problem.line
          ? msg("Mails:editor.problemAt", { line: problem.line, problem: problem.message })
          : msg("Mails:editor.problem", { problem: problem.message });
      }
    } catch (error) {
      if (!(error instanceof TemplateLimitError)) throw error;
      fields[field] = limitProblem(error);
    }
  }
  if (Object.keys(fields).length) throw new AppError("validation_failed", msg("Mails:editor.invalid"), { fields });
}

/** composeEmail for the editor: a limit that stops it is the merchant's to fix (422), never a 500. */
async function composeForEditor(...args: Parameters<typeof composeEmail>) {
  try {
    return await composeEmail(...args);
  } catch (error) {
    if (!(error instanceof TemplateLimitError)) throw error;
    const problem = limitProblem(error);
    throw new AppError("validation_failed", problem, { fields: { body: problem } });
  }
}

export async function saveTemplate(db: ShopDb, keyParam: string, input: TemplateInput) {
  const key = requireKey(keyParam);
  await assertTemplate(db.$shopId, key, input);
  const data = {
    subject: input.subject,
    body: input.body,
    enabled: notificationDef(key).transactional || input.enabled,
  };
  await db.notificationTemplate.upsert({
    where: { shopId_key: { shopId: db.$shopId, key } },
    create: { shopId: db.$shopId, key, ...data },
    update: data,
  });
  return { key, saved: true };
}

/** Back to the translated default (the on/off choice stays). */
export async function resetTemplate(db: ShopDb, keyParam: string) {
  const key = requireKey(keyParam);
  await db.notificationTemplate.updateMany({ where: { shopId: db.$shopId, key }, data: { subject: null, body: null } });
  return { key, reset: true };
}

export async function setNotificationEnabled(db: ShopDb, keyParam: string, enabled: boolean) {
  const key = requireKey(keyParam);
  // An invite or a password reset the merchant turned off would leave people
  // unable to sign in, with nothing to tell them why.
  if (!enabled && notificationDef(key).transactional) throw new AppError("conflict", msg("Mails:editor.alwaysSent"));
  await db.notificationTemplate.upsert({
    where: { shopId_key: { shopId: db.$shopId, key } },
    create: { shopId: db.$shopId, key, enabled },
    update: { enabled },
  });
  return { key, enabled };
}

/** The editor's current (unsaved) text rendered with the sample values, or its problems. */
export async function previewTemplate(db: ShopDb, keyParam: string, input: Omit<TemplateInput, "enabled">) {
  const key = requireKey(keyParam);
  await assertTemplate(db.$shopId, key, { ...input, enabled: true });
  const shop = await shopOf(db);
  const def = notificationDef(key);
  const language = shopLanguage(shop.language);
  const mail = await composeForEditor(
    key,
    input,
    sampleFor(shop, key, language),
    language,
    brandingOf(shop),
    def.transactional ? null : "#unsubscribe",
  );
  return { preview: mail };
}

/** "Send a test to me": the editor's current text with sample values, to the signed-in user. */
export async function sendTestEmail(db: ShopDb, keyParam: string, input: Omit<TemplateInput, "enabled">, to: string) {
  const key = requireKey(keyParam);
  await consumeTemplateRenders("testEmail", db.$shopId);
  await assertTemplate(db.$shopId, key, { ...input, enabled: true });
  const shop = await shopOf(db);
  // Rendered before the write transaction (the write lock is not held while
  // a template renders); the test uses the editor's text, not the saved one.
  let prepared: Awaited<ReturnType<typeof prepareNotification>>;
  try {
    prepared = await prepareNotification(db, {
      shop,
      key,
      to,
      language: shopLanguage(shop.language),
      values: sampleFor(shop, key, shopLanguage(shop.language)),
      dedupeBy: null,
      isTest: true,
      template: input,
    });
  } catch (error) {
    if (!(error instanceof TemplateLimitError)) throw error;
    const problem = limitProblem(error);
    throw new AppError("validation_failed", problem, { fields: { body: problem } });
  }
  if (prepared) await db.$transaction((tx) => queueEmail(tx, prepared));
  notifyJobsEnqueued();
  return { key, testSentTo: to };
}

export async function deliveryLog(db: ShopDb, page: number, kind?: string) {
  const where = { shopId: db.$shopId, ...(kind ? { kind } : {}) };
  const [total, rows] = await Promise.all([
    db.outboxEmail.count({ where }),
    db.outboxEmail.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * LOG_PAGE_SIZE,
      take: LOG_PAGE_SIZE,
      select: {
        id: true,
        toAddress: true,
        subject: true,
        kind: true,
        status: true,
        attempts: true,
        lastError: true,
        isTest: true,
        createdAt: true,
        sentAt: true,
      },
    }),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), sentAt: r.sentAt?.toISOString() ?? null })),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / LOG_PAGE_SIZE)),
  };
}

/** One e-mail of the outbox as it was (or will be) sent: the in-app viewer. */
export async function outboxEmail(db: ShopDb, id: string) {
  const row = await db.outboxEmail.findFirst({
    where: { id, shopId: db.$shopId },
    select: { id: true, toAddress: true, subject: true, text: true, html: true, status: true, lastError: true },
  });
  if (!row) throw new AppError("not_found", "No e-mail with this id.");
  return row;
}

export function mailSettingsOf(settings: string): MailSettingsInput {
  try {
    const mail = (JSON.parse(settings) as { mail?: Partial<MailSettingsInput> }).mail ?? {};
    return { fromName: mail.fromName ?? "", replyTo: mail.replyTo ?? "" };
  } catch {
    return { fromName: "", replyTo: "" };
  }
}

/** Sender name and reply-to of the shop's e-mails (Shop.settings.mail). */
export async function saveMailSettings(db: ShopDb, input: MailSettingsInput) {
  const shop = await shopOf(db);
  const mail = {
    ...(input.fromName ? { fromName: input.fromName } : {}),
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
  };
  await saveShopSetting(db, shop.id, "mail", mail);
  return { settingsSaved: true };
}
