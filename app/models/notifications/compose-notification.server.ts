import type { TFunction } from "i18next";
import { getConfig } from "../../config.server";
import type { Tx } from "../../db/transaction";
import { fixedT } from "../../i18n/i18next.server";
import { DEFAULT_LANGUAGE_INFO, languageInfo, type LanguageInfo } from "../../i18n/language-table";
import type { OutgoingEmail } from "../mail/outbox.server";
import { defaultTexts, notificationDef, nestValues, type NotificationKey } from "./catalogue";
import { DEFAULT_BRANDING, wrapInLayout, type Branding } from "./email-layout";
import { readBranding } from "../settings/branding";
import { renderTemplateInThread } from "./template-threads.server";
import { preferencesUrl } from "./mail-preferences";

// From a notification key, its values and a recipient to an outbox row: the
// shop's template (or the translated default), rendered by Liquid into the
// HTML layout and a text part, with the one-click unsubscribe address on
// non-transactional e-mail. The dedupe key and the recipient's opt-outs are
// checked where the e-mail is written (writeEmail), in the same transaction:
// a second e-mail for the same event and recipient, or one of a kind its
// recipient opted out of, is composed but never stored.

/** Where the default wording of a notification lives. */
export function defaultNamespace(key: NotificationKey): string {
  return defaultTexts(key).namespace;
}

// fixedT builds an i18next instance; one per language and namespace is
// enough for shipped texts (they do not change while the process runs).
const translators = new Map<string, TFunction>();
export function shippedT(language: LanguageInfo, namespace: string): TFunction {
  const id = `${language.code}|${namespace}`;
  let t = translators.get(id);
  if (!t) {
    t = fixedT(language, [namespace]);
    translators.set(id, t);
  }
  return t;
}

/** The translated default subject and body (Liquid source, not interpolated by i18next). */
export function defaultTemplate(key: NotificationKey, language: LanguageInfo) {
  const namespace = defaultNamespace(key);
  const t = shippedT(language, namespace);
  const { path } = defaultTexts(key);
  const raw = { skipInterpolation: true } as const;
  return {
    subject: t(`${namespace}:${path}.subject`, raw),
    body: t(`${namespace}:${path}.body`, raw),
  };
}

export function layoutTexts(key: NotificationKey, language: LanguageInfo) {
  const namespace = defaultNamespace(key);
  return {
    unsubscribe: shippedT(language, namespace)(`${namespace}:notify.unsubscribe`),
    language: language.tag,
    dir: language.dir,
  } as const;
}

/** The language of merchant and staff e-mails: the shop's (English where Mails is not shipped). */
export function shopLanguage(code: string | null | undefined): LanguageInfo {
  return languageInfo(code) ?? DEFAULT_LANGUAGE_INFO;
}

/**
 * The branding of a shop's e-mails: Settings › Branding's logo and primary
 * and background colours. The logo is an upload the portal-assets route
 * serves; an e-mail is read far from the app, so its address is made
 * absolute on the app's own URL (never a host a request named).
 */
export function brandingOf(shop: { name: string; settings?: string | null }): Branding {
  const saved = readBranding(shop.settings ?? "{}");
  return {
    shopName: shop.name,
    logoUrl: saved.logo ? `${getConfig().appUrl.replace(/\/$/, "")}${saved.logo}` : DEFAULT_BRANDING.logoUrl,
    accentColor: saved.primary_color || DEFAULT_BRANDING.accentColor,
    backgroundColor: saved.background_color || DEFAULT_BRANDING.backgroundColor,
  };
}

export interface ShopTemplate {
  enabled: boolean;
  subject: string;
  body: string;
  edited: boolean;
}

/** The template in force for a shop and language: the merchant's edit (any language) over the default. */
export async function templateInForce(
  tx: Pick<Tx, "notificationTemplate">,
  shopId: string,
  key: NotificationKey,
  language: LanguageInfo,
): Promise<ShopTemplate> {
  const row = await tx.notificationTemplate.findUnique({ where: { shopId_key: { shopId, key } } });
  const fallback = defaultTemplate(key, language);
  return {
    enabled: row?.enabled ?? true,
    subject: row?.subject ?? fallback.subject,
    body: row?.body ?? fallback.body,
    edited: Boolean(row?.subject ?? row?.body),
  };
}

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

export async function composeEmail(
  key: NotificationKey,
  template: { subject: string; body: string },
  values: Record<string, string>,
  language: LanguageInfo,
  branding: Branding,
  unsubscribeUrl: string | null,
): Promise<ComposedEmail> {
  const parts = await renderTemplateInThread(template.subject, template.body, nestValues(values));
  const texts = layoutTexts(key, language);
  const html = wrapInLayout(parts.bodyHtml, parts.subject, branding, texts, unsubscribeUrl);
  const text = unsubscribeUrl ? `${parts.text}\n\n--\n${texts.unsubscribe}: ${unsubscribeUrl}\n` : `${parts.text}\n`;
  return { subject: parts.subject, html, text };
}

export interface NotificationRequest {
  shop: { id: string; name: string; settings?: string | null };
  key: NotificationKey;
  to: string;
  language: LanguageInfo;
  values: Record<string, string>;
  /** "{event id}" (or another stable id): with the address, what makes the e-mail unique. */
  dedupeBy: string | null;
  isTest?: boolean;
  /** The text to use instead of the shop's (a test of unsaved editor text). */
  template?: { subject: string; body: string };
}

/**
 * Reads what a notification needs and composes it (the Liquid render), or
 * null when the merchant turned its kind off. Reads only: event dispatch runs it
 * before its write transaction, so SQLite's write lock is not held while a
 * template renders (ADR 035).
 */
export async function prepareNotification(reader: Tx, request: NotificationRequest): Promise<OutgoingEmail | null> {
  const { shop, key, to } = request;
  const address = to.toLowerCase();
  const dedupeKey = request.dedupeBy ? `${request.dedupeBy}:${address}` : null;
  const def = notificationDef(key);
  const inForce = await templateInForce(reader, shop.id, key, request.language);
  const template = request.template ? { ...inForce, ...request.template } : inForce;
  // Transactional mail is always sent (an invite, a password reset).
  if (!request.isTest && !def.transactional && !template.enabled) return null;
  const unsubscribeUrl = unsubscribeUrlOf(shop.id, address, key);
  const mail = await composeEmail(key, template, request.values, request.language, brandingOf(shop), unsubscribeUrl);
  return outgoingEmail(shop.id, address, key, mail, dedupeKey, unsubscribeUrl, request.isTest ?? false);
}

/** The one-click unsubscribe address of a kind's e-mail to an address; none for a transactional kind. */
export function unsubscribeUrlOf(shopId: string, address: string, key: NotificationKey): string | null {
  if (notificationDef(key).transactional) return null;
  const config = getConfig();
  return preferencesUrl(config.appUrl, config.SESSION_SECRET, shopId, address, key);
}

/** A composed notification as the outbox takes it. */
export function outgoingEmail(
  shopId: string,
  address: string,
  key: NotificationKey,
  mail: ComposedEmail,
  dedupeKey: string | null,
  unsubscribeUrl: string | null,
  isTest = false,
): OutgoingEmail {
  return {
    shopId,
    to: address,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    kind: key,
    dedupeKey,
    unsubscribeUrl,
    isTest,
  };
}
