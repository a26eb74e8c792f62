import { z } from "zod";
import { ID_PATTERN } from "./ids";

/** A keyset cursor parameter; anything malformed is dropped (the first page is shown). */
export const cursorParam = () =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .catch(undefined);

/** A list's search text; blank or too long is no search (the list shows everything). */
export const searchParam = () =>
  z
    .string()
    .trim()
    .max(100)
    .optional()
    .catch(undefined)
    .transform((v) => v || undefined);

/** The ids a list's bulk action was asked for: 1..limit well-formed ids. */
export const selectedIds = (noun: string, limit: number) =>
  z
    .array(z.string().regex(ID_PATTERN, "Not a valid id"))
    .min(1, `Select at least one ${noun}`)
    .max(limit, `Select at most ${limit} ${noun}s at a time`);
