import { z } from "zod";

// The public API's one wire case: snake_case field names, for the REST API
// and for the `data` of outgoing webhooks alike (docs/decisions/037). The
// domain writes camelCase; this is the one place that maps names to the wire,
// for values (toWireCase) and for the zod schemas that document them
// (wireSchema), so a body and its OpenAPI schema cannot disagree.

/** "referralCode" → "referral_code"; a snake_case name is left as it is. */
export function snakeName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A JSON value with every object key in snake_case (arrays and nested objects included). */
export function toWireCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWireCase);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeName(key), toWireCase(inner)]));
  }
  return value;
}

/** The schema of toWireCase's output for values of `schema`: the same types, field names in snake_case. */
export function wireSchema(schema: z.ZodTypeAny): z.ZodTypeAny {
  const described = (out: z.ZodTypeAny) => (schema.description ? out.describe(schema.description) : out);
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as z.ZodRawShape).map(([key, inner]) => [snakeName(key), wireSchema(inner)]),
    );
    return described(z.object(shape));
  }
  if (schema instanceof z.ZodOptional) return described(wireSchema(schema.unwrap()).optional());
  if (schema instanceof z.ZodNullable) return described(wireSchema(schema.unwrap()).nullable());
  if (schema instanceof z.ZodArray) return described(z.array(wireSchema(schema.element)));
  return schema;
}
