import { z } from "zod";
import { msg } from "../../i18n/messages";
import { COUNTRY_CODES } from "./countries";

// The three forms an affiliate signs on /account/payouts/tax-form, one zod
// schema each: the page takes its fields (names, required marks, choices)
// from these, and the server parses the posted form with the same ones.
// Field lists follow the IRS forms (Form W-9 rev. March 2024, W-8BEN rev.
// October 2021, W-8BEN-E rev. October 2021; docs/decisions/041-tax-forms-and-1099-nec.md).
// Pure: no database, no key.

export const TAX_FORM_KINDS = ["w9", "w8ben", "w8bene"] as const;
export type TaxFormKind = (typeof TAX_FORM_KINDS)[number];

/** Form W-9 line 3a. */
export const W9_CLASSIFICATIONS = [
  "individual",
  "c_corporation",
  "s_corporation",
  "partnership",
  "trust_estate",
  "llc_c",
  "llc_s",
  "llc_p",
  "other",
] as const;

/** Form W-8BEN-E Part I line 4 (chapter 3 status), the kinds an affiliate business can be. */
export const CHAPTER3_STATUSES = [
  "corporation",
  "partnership",
  "disregarded_entity",
  "simple_trust",
  "grantor_trust",
  "complex_trust",
  "estate",
  "foreign_government",
  "international_organization",
  "tax_exempt_organization",
  "private_foundation",
] as const;

const required = (max: number) =>
  z
    .string({ required_error: msg("Global:validation.required") })
    .trim()
    .min(1, msg("Global:validation.required"))
    .max(max, msg("Global:validation.textMax", { max }));

const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, msg("Global:validation.textMax", { max }))
    .optional()
    .transform((v) => v ?? "");

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: msg("Global:validation.choose") }) });

const country = choice(COUNTRY_CODES as unknown as [string, ...string[]]);
const foreignCountry = country.refine((c) => c !== "US", msg("Account.TaxForm:errors.usPersonW9"));

/** Digits only (the form may be typed with dashes or spaces). */
export const digitsOf = (value: string) => value.replace(/[\s-]/g, "");

/**
 * A US SSN or EIN: nine digits. An SSN never starts with 000, 666 or 9 and
 * has no 00 group or 0000 serial; an EIN's prefix is never 00 (IRS
 * instructions for Form W-9, "Taxpayer Identification Number").
 */
export function isValidUsTin(value: string, type: "ssn" | "ein"): boolean {
  const d = digitsOf(value);
  if (!/^\d{9}$/.test(d)) return false;
  if (type === "ein") return !d.startsWith("00");
  const [area, group, serial] = [d.slice(0, 3), d.slice(3, 5), d.slice(5)];
  return area !== "000" && area !== "666" && !area.startsWith("9") && group !== "00" && serial !== "0000";
}

/** A foreign TIN: letters, digits and the separators countries print them with. */
const foreignTin = z
  .string()
  .trim()
  .max(40, msg("Global:validation.textMax", { max: 40 }))
  .regex(/^[A-Za-z0-9 ./-]*$/, msg("Account.TaxForm:errors.tin"))
  .optional()
  .transform((v) => v ?? "");

const usTinOptional = z
  .string()
  .trim()
  .optional()
  .transform((v) => v ?? "")
  .refine((v) => v === "" || /^\d{9}$/.test(digitsOf(v)), msg("Account.TaxForm:errors.tin"));

/** The e-signature every form ends with: the name typed and the box that certifies, under penalties of perjury. */
const signature = {
  signatureName: required(120),
  certify: z.literal("on", { errorMap: () => ({ message: msg("Account.TaxForm:errors.certify") }) }),
};

export const w9Schema = z
  .object({
    kind: z.literal("w9"),
    name: required(120),
    businessName: optional(120),
    classification: choice(W9_CLASSIFICATIONS),
    exemptPayeeCode: optional(4),
    fatcaCode: optional(4),
    address: required(200),
    city: required(80),
    state: z
      .string({ required_error: msg("Global:validation.required") })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, msg("Account.TaxForm:errors.state")),
    zip: z
      .string({ required_error: msg("Global:validation.required") })
      .trim()
      .regex(/^\d{5}(-\d{4})?$/, msg("Account.TaxForm:errors.zip")),
    tinType: choice(["ssn", "ein"] as const),
    tin: z.string({ required_error: msg("Global:validation.required") }).trim(),
    ...signature,
  })
  .superRefine((form, ctx) => {
    if (!isValidUsTin(form.tin, form.tinType)) {
      ctx.addIssue({ code: "custom", path: ["tin"], message: msg("Account.TaxForm:errors.tin") });
    }
  });

const isoDate = z
  .string({ required_error: msg("Global:validation.required") })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, msg("Account.TaxForm:errors.date"))
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v) && d.getTime() < Date.now();
  }, msg("Account.TaxForm:errors.date"));

export const w8benSchema = z
  .object({
    kind: z.literal("w8ben"),
    name: required(120),
    citizenship: foreignCountry,
    address: required(200),
    city: required(120),
    country: foreignCountry,
    mailingAddress: optional(300),
    usTin: usTinOptional,
    foreignTin,
    dateOfBirth: isoDate,
    treatyCountry: z
      .union([z.literal(""), foreignCountry])
      .optional()
      .transform((v) => v ?? ""),
    treatyArticle: optional(40),
    treatyRate: optional(10),
    ...signature,
  })
  .superRefine((form, ctx) => {
    // Line 6a: a foreign TIN, or line 5 a US one (the form's "FTIN not legally required" is not offered).
    if (!form.usTin && !form.foreignTin) {
      ctx.addIssue({ code: "custom", path: ["foreignTin"], message: msg("Account.TaxForm:errors.tinNeeded") });
    }
  });

export const w8beneSchema = z.object({
  kind: z.literal("w8bene"),
  organizationName: required(160),
  incorporationCountry: foreignCountry,
  chapter3Status: choice(CHAPTER3_STATUSES),
  address: required(200),
  city: required(120),
  country: foreignCountry,
  foreignTin: foreignTin.refine((v) => v !== "", msg("Global:validation.required")),
  ...signature,
});

/** The posted form, whichever kind it is (the door parses with this). */
export const taxFormSchema = z
  .discriminatedUnion("kind", [w9Schema.innerType(), w8benSchema.innerType(), w8beneSchema])
  .superRefine((form, ctx) => {
    // The per-kind checks above (TIN rules) live in the refined schemas: run them again.
    const refined = form.kind === "w9" ? w9Schema : form.kind === "w8ben" ? w8benSchema : null;
    if (!refined) return;
    const result = refined.safeParse(form);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue(issue);
  });
export type TaxFormInput = z.infer<typeof taxFormSchema>;

export const SCHEMA_OF: Record<TaxFormKind, z.ZodTypeAny> = { w9: w9Schema, w8ben: w8benSchema, w8bene: w8beneSchema };

/** The TINs of a form, and what is kept in the clear about them (the kind and the last four). */
export function tinsOf(form: TaxFormInput): {
  tins: { tin: string; foreignTin: string };
  tinType: "ssn" | "ein" | "itin" | "foreign";
  last4: string;
} {
  if (form.kind === "w9") {
    const tin = digitsOf(form.tin);
    return { tins: { tin, foreignTin: "" }, tinType: form.tinType, last4: tin.slice(-4) };
  }
  const usTin = form.kind === "w8ben" ? digitsOf(form.usTin) : "";
  const foreign = form.foreignTin.replace(/\s/g, "");
  if (usTin) return { tins: { tin: usTin, foreignTin: foreign }, tinType: "itin", last4: usTin.slice(-4) };
  return { tins: { tin: "", foreignTin: foreign }, tinType: "foreign", last4: foreign.slice(-4) };
}

/** The form without its TINs and signature box: what is stored as plain JSON. */
export function plainFieldsOf(form: TaxFormInput): Record<string, string> {
  const rest: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    if (["tin", "usTin", "foreignTin", "certify", "kind", "signatureName"].includes(key)) continue;
    rest[key] = String(value);
  }
  return rest;
}

/** "•••• 6789": the only view of a TIN that leaves the server. */
export const maskTin = (last4: string) => `•••• ${last4}`;
