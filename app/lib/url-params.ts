import { z } from "zod";

/** A list page's URL parameters through its schema (first value of each). */
export function readParams<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, url: URL): T {
  return schema.parse(Object.fromEntries(url.searchParams));
}

/** A keyset cursor parameter; anything malformed is dropped (the first page is shown). */
export const cursorParam = () =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .catch(undefined);
