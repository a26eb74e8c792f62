import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { NAMESPACES } from "./languages";

// Messages for a user that are translated where they are shown: a zod
// schema's field messages and an AppError's message carry a translation KEY
// ("Account.Common:validation.firstName", with values when the text has
// placeholders) instead of English. The server's door turns each into English
// for `message`/`fields` (what API clients and English pages read) and sends
// the keys beside them (`messageKey`/`fieldKeys`); a page translates them with
// its own t(). The REST API (/api/v1) sends the English only (ADR 020).
//
// zod messages are plain strings, so a key with its values travels as one
// string: the key, then the values as JSON ("Global:validation.textMax{"max":80}").

export type MessageValues = Record<string, string | number>;

export interface MessageRef {
  /** "Namespace:path.to.key" */
  key: string;
  values?: MessageValues;
}

/** A translatable message for a schema or an AppError. */
export function msg(key: string, values?: MessageValues): string {
  return values && Object.keys(values).length ? `${key}${JSON.stringify(values)}` : key;
}

const KNOWN = new Set<string>(NAMESPACES);

// A namespace (Account.Common, Global), a colon, a dotted key; then JSON values.
const ENCODED = /^([A-Z][A-Za-z]*(?:\.[A-Z][A-Za-z]*)*:[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)(\{.*\})?$/s;

/** The key (and values) a message carries, or null when it is plain text. */
export function messageRef(text: string | null | undefined): MessageRef | null {
  if (!text) return null;
  const match = ENCODED.exec(text);
  // Only the product's namespaces: any other "Word:word" is plain text.
  if (!match || !KNOWN.has(match[1]!.slice(0, match[1]!.indexOf(":")))) return null;
  if (!match[2]) return { key: match[1]! };
  try {
    const values = JSON.parse(match[2]) as unknown;
    if (!values || typeof values !== "object" || Array.isArray(values)) return null;
    return { key: match[1]!, values: values as MessageValues };
  } catch {
    return null;
  }
}

/**
 * A message in t()'s language: a key (encoded, or as the door sends it) is
 * translated, with `fallback` (the door's English) when the page has no such
 * text; plain text is returned as it is.
 */
export function translateMessage(
  t: TFunction,
  message: string | MessageRef | null | undefined,
  fallback?: string,
): string | undefined {
  const ref = typeof message === "string" ? messageRef(message) : message;
  if (!ref) return (typeof message === "string" ? message : undefined) ?? fallback;
  return t(ref.key, { ...ref.values, defaultValue: fallback ?? ref.key }) as string;
}

/** A field → message map (from a local zod parse, or the door's English) in t()'s language. */
export function translateFields(
  t: TFunction,
  fields: Record<string, string> | undefined,
  keys?: Record<string, MessageRef>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(fields ?? {})) out[path] = translateMessage(t, keys?.[path] ?? text, text)!;
  return out;
}

/** The error of an action's answer as the door sends it (see app/lib/errors.ts ErrorBody). */
export interface KeyedError {
  message: string;
  fields?: Record<string, string>;
  messageKey?: MessageRef;
  fieldKeys?: Record<string, MessageRef>;
}

/** An action's error with its message and field messages in t()'s language. */
export function translateError<E extends KeyedError>(t: TFunction, error: E): E {
  return {
    ...error,
    message: translateMessage(t, error.messageKey ?? error.message, error.message)!,
    ...(error.fields ? { fields: translateFields(t, error.fields, error.fieldKeys) } : {}),
  };
}

/**
 * zod's own messages for rules that name none, as keys of Global (every page
 * has it): the door's pages and the admin's in-browser checks parse with it.
 */
export const keyedErrorMap: z.ZodErrorMap = (issue, ctx) => {
  // zod asks a parse's error map last, after the schema's own (required_error,
  // errorMap): a message the schema chose is kept, only zod's default is replaced.
  if (ctx.defaultError !== z.defaultErrorMap(issue, { data: ctx.data, defaultError: "" }).message) {
    return { message: ctx.defaultError };
  }
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      if (issue.received === "undefined" || issue.received === "null")
        return { message: msg("Global:validation.required") };
      if (issue.expected === "integer") return { message: msg("Global:validation.whole") };
      if (issue.expected === "number") return { message: msg("Global:validation.number") };
      return { message: msg("Global:validation.invalid") };
    case z.ZodIssueCode.too_small:
      if (issue.type === "string")
        return {
          message:
            Number(issue.minimum) <= 1
              ? msg("Global:validation.required")
              : msg("Global:validation.textMin", { min: Number(issue.minimum) }),
        };
      if (issue.type === "number" && issue.inclusive)
        return { message: msg("Global:validation.numberMin", { min: Number(issue.minimum) }) };
      if (issue.type === "array" && Number(issue.minimum) === 1) return { message: msg("Global:validation.required") };
      return { message: msg("Global:validation.invalid") };
    case z.ZodIssueCode.too_big:
      if (issue.type === "string") return { message: msg("Global:validation.textMax", { max: Number(issue.maximum) }) };
      if (issue.type === "number" && issue.inclusive)
        return { message: msg("Global:validation.numberMax", { max: Number(issue.maximum) }) };
      return { message: msg("Global:validation.invalid") };
    case z.ZodIssueCode.invalid_string:
      return {
        message: issue.validation === "email" ? msg("Global:validation.email") : msg("Global:validation.invalid"),
      };
    case z.ZodIssueCode.invalid_enum_value:
    case z.ZodIssueCode.invalid_literal:
    case z.ZodIssueCode.invalid_union_discriminator:
      return { message: msg("Global:validation.choose") };
    case z.ZodIssueCode.unrecognized_keys:
      // A client's mistake no form makes: zod's English names the keys.
      return { message: ctx.defaultError };
    default:
      // Refinements without a message, unions, dates, ...
      return { message: msg("Global:validation.invalid") };
  }
};

/** The namespaces of the keys an error carries ("Plans:errors.affiliateLimit" → Plans). */
export function errorNamespaces(error: KeyedError | undefined): string[] {
  if (!error) return [];
  const refs = [
    error.messageKey ?? messageRef(error.message),
    ...Object.values(error.fieldKeys ?? {}),
    ...Object.values(error.fields ?? {}).map(messageRef),
  ];
  return [...new Set(refs.flatMap((ref) => (ref ? [ref.key.slice(0, ref.key.indexOf(":"))] : [])))].sort();
}

/** An action's error (useActionData, a fetcher's data) in the page's language. */
export function useTranslatedError<E extends KeyedError>(error: E | undefined): E | undefined {
  // A key from a namespace the document did not bring (a plan limit's message
  // on a page without Plans) loads it: the door's English until it is here.
  const { t } = useTranslation(["Global", ...errorNamespaces(error)]);
  return error ? translateError(t, error) : undefined;
}
