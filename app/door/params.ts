import { z } from "zod";
import { ID_PATTERN } from "../lib/ids";

// Path parameters. An id that could not exist names nothing: it is a 404 with
// the message below, and it never reaches the database (PostgreSQL refuses a
// NUL byte with an error, not a miss).

export const recordId = (noun: string) =>
  z.string({ required_error: `No ${noun} with this id.` }).regex(ID_PATTERN, `No ${noun} with this id.`);

/** `{ id }` of a page or endpoint about one record. */
export const idParams = (noun: string) => z.object({ id: recordId(noun) });
