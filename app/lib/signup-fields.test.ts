import { describe, expect, it } from "vitest";
import { z } from "zod";
import { signupFieldSchema, type SignupField } from "./portal-content";
import { customFieldAnswers, customFieldsShape, fieldLabel, readSignupAnswers } from "./signup-fields";

const field = (over: Partial<SignupField> & Pick<SignupField, "id" | "type">): SignupField =>
  signupFieldSchema.parse({ label: "Label", options: over.type === "select" ? ["Blog", "Video"] : [], ...over });

const fields = [
  field({ id: "channel", type: "select", required: true }),
  field({ id: "audience", type: "text" }),
  field({ id: "adult", type: "checkbox", required: true }),
  field({ id: "news", type: "checkbox" }),
];
const schema = z.object(customFieldsShape(fields));

describe("customFieldsShape (the schema built from the merchant's fields)", () => {
  it.each([
    ["all answered", { q_channel: "Blog", q_audience: " 5k ", q_adult: "on" }, true],
    ["a required list left empty", { q_channel: "", q_adult: "on" }, false],
    ["a choice not on the list", { q_channel: "Radio", q_adult: "on" }, false],
    ["a required box not ticked", { q_channel: "Video" }, false],
    ["optional fields absent", { q_channel: "Video", q_adult: "on" }, true],
    ["a text over 1000 characters", { q_channel: "Video", q_adult: "on", q_audience: "x".repeat(1001) }, false],
  ])("%s", (_name, input, ok) => {
    expect(schema.safeParse(input).success).toBe(ok);
  });

  it("names the field that failed with a message key", () => {
    const result = schema.safeParse({ q_channel: "Blog" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["q_adult", "Account.Common:validation.answer"],
    ]);
  });
});

describe("customFieldAnswers (what is kept with the affiliate)", () => {
  it("keeps answers by field id, boxes as booleans, and leaves empty text out", () => {
    const parsed = schema.parse({ q_channel: "Blog", q_audience: "", q_adult: "on" });
    expect(customFieldAnswers(fields, parsed)).toEqual({ channel: "Blog", adult: true, news: false });
  });
});

describe("signupFieldSchema (the merchant's definitions)", () => {
  it.each([
    ["a list with two choices", { id: "a", label: "A", type: "select", options: ["x", "y", ""] }, true],
    ["a list with one choice", { id: "a", label: "A", type: "select", options: ["x"] }, false],
    ["a list with a repeated choice", { id: "a", label: "A", type: "select", options: ["x", "x"] }, false],
    ["a field without a label", { id: "a", label: " ", type: "text" }, false],
    ["a checkbox (its options dropped)", { id: "a", label: "A", type: "checkbox", options: ["x"] }, true],
    ["an id with capitals", { id: "A", label: "A", type: "text" }, false],
  ])("%s", (_name, input, ok) => {
    expect(signupFieldSchema.safeParse(input).success).toBe(ok);
  });

  it("keeps only the choices of a list", () => {
    expect(signupFieldSchema.parse({ id: "a", label: "A", type: "checkbox", options: ["x"] }).options).toEqual([]);
  });
});

describe("fieldLabel and readSignupAnswers", () => {
  it("uses the label of the visitor's language, else the merchant's text", () => {
    const f = { label: "Channel", labels: { de: "Kanal", fr: "" } };
    expect([fieldLabel(f, "de"), fieldLabel(f, "fr"), fieldLabel(f, null)]).toEqual(["Kanal", "Channel", "Channel"]);
  });

  it.each([
    ['{"answers":{"a":"x","b":true,"c":3}}', { a: "x", b: true }],
    ["not json", {}],
    ['{"social":[]}', {}],
  ])("reads %s", (raw, expected) => {
    expect(readSignupAnswers(raw)).toEqual(expected);
  });
});
