import type { TFunction } from "i18next";
import type { ErrorBody } from "../lib/errors";
import { fixedT } from "./i18next.server";
import { DEFAULT_LANGUAGE_INFO } from "./language-table";
import { messageRef, type MessageRef } from "./messages";

// The server's half of translatable messages (app/i18n/messages.ts): English
// for whoever reads `message` and `fields` (API clients, logs, pages that do
// not translate), and the keys beside it for pages that do.

const english = new Map<string, TFunction>();

/** A message's English text (plain text is returned as it is). */
export function englishMessage(message: string | MessageRef): string {
  const ref = typeof message === "string" ? messageRef(message) : message;
  if (!ref) return message as string;
  const ns = ref.key.slice(0, ref.key.indexOf(":"));
  let t = english.get(ns);
  if (!t) {
    t = fixedT(DEFAULT_LANGUAGE_INFO, [ns]);
    english.set(ns, t);
  }
  return t(ref.key, { ...ref.values, defaultValue: ref.key }) as string;
}

/**
 * An error body with English in `message` and `fields`; with `keys`, the
 * translation keys beside them (`messageKey`, `fieldKeys`) for the page.
 */
export function keyedErrorBody(body: ErrorBody, keys: boolean): ErrorBody {
  const { message, fields, ...rest } = body.error;
  const messageKey = messageRef(message);
  const out: ErrorBody["error"] = { ...rest, message: messageKey ? englishMessage(messageKey) : message };
  if (keys && messageKey) out.messageKey = messageKey;
  if (fields) {
    out.fields = {};
    const fieldKeys: Record<string, MessageRef> = {};
    for (const [path, text] of Object.entries(fields)) {
      const ref = messageRef(text);
      out.fields[path] = ref ? englishMessage(ref) : text;
      if (ref) fieldKeys[path] = ref;
    }
    if (keys && Object.keys(fieldKeys).length) out.fieldKeys = fieldKeys;
  }
  return { error: out };
}
