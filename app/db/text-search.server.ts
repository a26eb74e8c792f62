import { getConfig } from "../config.server";
import { databaseProvider } from "./client.server";

/**
 * A case-insensitive "contains" filter on both providers: SQLite's LIKE
 * already ignores ASCII case, PostgreSQL needs Prisma's insensitive mode
 * (which the SQLite client's types do not know, hence the cast).
 */
export function containsText(text: string): { contains: string } {
  if (databaseProvider(getConfig().DATABASE_URL) === "postgresql") {
    return { contains: text, mode: "insensitive" } as { contains: string };
  }
  return { contains: text };
}
