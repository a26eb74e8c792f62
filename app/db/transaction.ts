import type { Db } from "./client.server";

/** The client handed to a callback of `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
