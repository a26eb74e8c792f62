import type { z } from "zod";

/** A list page's URL parameters through its schema (first value of each). */
export function readParams<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, url: URL): T {
  return schema.parse(Object.fromEntries(url.searchParams));
}
