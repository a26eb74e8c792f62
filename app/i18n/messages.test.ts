import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, errorBody, fieldErrorsFromZod } from "../lib/errors";
import { fixedT } from "./i18next.server";
import { languageInfo } from "./language-table";
import { errorNamespaces, keyedErrorMap, messageRef, msg, translateError, translateMessage } from "./messages";
import { englishMessage, keyedErrorBody } from "./messages.server";

const de = fixedT(languageInfo("de")!, ["Global", "Account.Common"]);
const ja = fixedT(languageInfo("jp")!, ["Global", "Account.Common"]);

describe("message keys", () => {
  it.each([
    ["Global:validation.required", { key: "Global:validation.required" }],
    ['Global:validation.textMax{"max":80}', { key: "Global:validation.textMax", values: { max: 80 } }],
    ["Account.Common:validation.firstName", { key: "Account.Common:validation.firstName" }],
    ["Enter your first name", null],
    ["Use: a colon", null],
    ["Note:plain", null], // no such namespace
    ["Global:validation.textMax{not json", null],
    ["Global:validation.textMax[1]", null],
    ["", null],
  ])("%s reads as %j", (text, want) => {
    expect(messageRef(text)).toEqual(want);
  });

  it("round-trip values", () => {
    expect(messageRef(msg("Global:validation.numberMin", { min: 3 }))).toEqual({
      key: "Global:validation.numberMin",
      values: { min: 3 },
    });
    expect(msg("Global:validation.required", {})).toBe("Global:validation.required");
  });

  it("translate with the page's t, plain text as it is", () => {
    expect(translateMessage(de, msg("Global:validation.textMax", { max: 80 }))).toBe("Höchstens 80 Zeichen");
    expect(translateMessage(ja, { key: "Account.Common:validation.firstName" })).toBe("名を入力してください");
    expect(translateMessage(de, "Unknown form.")).toBe("Unknown form.");
    // A key the page does not have: the door's English.
    expect(translateMessage(de, { key: "Campaigns:nothing.here" }, "English")).toBe("English");
  });
});

describe("zod's default messages as keys", () => {
  const parse = (schema: z.ZodTypeAny, value: unknown) =>
    schema.safeParse(value, { errorMap: keyedErrorMap }).error!.issues[0]!.message;

  it.each([
    ["missing", z.object({ a: z.string() }), {}, "Global:validation.required"],
    ["empty", z.string().min(1), "", "Global:validation.required"],
    ["short", z.string().min(10), "abc", 'Global:validation.textMin{"min":10}'],
    ["long", z.string().max(80), "x".repeat(81), 'Global:validation.textMax{"max":80}'],
    ["not an e-mail", z.string().email(), "nope", "Global:validation.email"],
    ["not a url", z.string().url(), "nope", "Global:validation.invalid"],
    ["not an option", z.enum(["a", "b"]), "c", "Global:validation.choose"],
    ["wrong literal", z.literal("on"), "off", "Global:validation.choose"],
    ["not a number", z.number(), "x", "Global:validation.number"],
    ["not whole", z.number().int(), 1.5, "Global:validation.whole"],
    ["too small", z.number().min(1), 0, 'Global:validation.numberMin{"min":1}'],
    ["too big", z.number().max(365), 400, 'Global:validation.numberMax{"max":365}'],
    ["positive", z.number().positive(), 0, "Global:validation.invalid"],
    ["a refinement without a message", z.string().refine(() => false), "x", "Global:validation.invalid"],
    ["wrong type", z.string(), 5, "Global:validation.invalid"],
  ])("%s", (_name, schema, value, want) => {
    expect(parse(schema, value)).toBe(want);
  });

  it("leaves a message the schema gives itself", () => {
    expect(parse(z.object({ a: z.string({ required_error: "Mine" }) }), {})).toBe("Mine");
    expect(parse(z.string().min(2, "Too short"), "x")).toBe("Too short");
    expect(parse(z.literal("on", { errorMap: () => ({ message: "Accept" }) }), "x")).toBe("Accept");
    expect(
      parse(
        z.string().refine(() => false, "Nope"),
        "x",
      ),
    ).toBe("Nope");
  });

  it("every key it gives exists in English", () => {
    const issues = z
      .object({ a: z.string(), b: z.string().max(1), c: z.number().int().min(5), d: z.enum(["x"]) })
      .safeParse({ b: "xx", c: 1.5, d: "y" }, { errorMap: keyedErrorMap }).error!.issues;
    for (const issue of issues) expect(englishMessage(issue.message)).not.toMatch(/validation\./);
  });
});

describe("the door's error body", () => {
  const error = new AppError("validation_failed", "Some fields are not valid.", {
    fields: {
      firstName: msg("Account.Common:validation.firstName"),
      password: msg("Global:validation.textMin", { min: 10 }),
      other: "Plain English",
    },
  });

  it("carries English, and the keys for pages", () => {
    const body = keyedErrorBody(errorBody(error).body, true);
    expect(body.error.fields).toEqual({
      firstName: "Enter your first name",
      password: "Use at least 10 characters",
      other: "Plain English",
    });
    expect(body.error.fieldKeys).toEqual({
      firstName: { key: "Account.Common:validation.firstName" },
      password: { key: "Global:validation.textMin", values: { min: 10 } },
    });
    expect(body.error.messageKey).toBeUndefined();
    // The page shows it in its own language; the field without a key stays English.
    expect(translateError(ja, body.error).fields).toEqual({
      firstName: "名を入力してください",
      password: "10文字以上で入力してください",
      other: "Plain English",
    });
  });

  it("is English only for the REST API", () => {
    const login = new AppError("unauthenticated", msg("Account.Common:validation.loginInvalid"));
    const body = keyedErrorBody(errorBody(login).body, false);
    expect(body).toEqual({ error: { code: "unauthenticated", message: "Incorrect e-mail or password." } });
    const keyed = keyedErrorBody(errorBody(login).body, true);
    expect(keyed.error.messageKey).toEqual({ key: "Account.Common:validation.loginInvalid" });
    expect(translateError(de, keyed.error).message).toBe("E-Mail-Adresse oder Passwort ist falsch.");
  });

  it("names the namespaces its keys are in, for a page to load what it lacks", () => {
    const limit = new AppError("conflict", msg("Plans:errors.affiliateLimit", { max: 50 }));
    expect(errorNamespaces(keyedErrorBody(errorBody(limit).body, true).error)).toEqual(["Plans"]);
    expect(errorNamespaces(keyedErrorBody(errorBody(error).body, true).error)).toEqual(["Account.Common", "Global"]);
    expect(errorNamespaces({ message: "Plain English" })).toEqual([]);
    expect(errorNamespaces(undefined)).toEqual([]);
  });

  it("keeps a field map from zod's issues in step", () => {
    const parsed = z.object({ a: z.string() }).safeParse({}, { errorMap: keyedErrorMap });
    expect(fieldErrorsFromZod(parsed.error!.issues)).toEqual({ a: "Global:validation.required" });
  });
});
