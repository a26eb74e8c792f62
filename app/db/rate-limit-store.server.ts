import { RateLimiterPrisma } from "rate-limiter-flexible";
import { getDb } from "../db.server";
import type { Db } from "./client.server";
import { writeOnRead } from "./db-context";
import { bind, dialectOf, sqlDate, type Dialect } from "./dialect";

// Rate limits kept in the database (table RateLimiterFlexible), so every app
// instance shares the counts. rate-limiter-flexible's Prisma store counts by
// reading the row, then writing it, in a read-committed transaction. Calls
// for one key at once (a burst from one address: what a limiter is there
// for) then go wrong under PostgreSQL: two first calls both insert and the
// loser's unique violation reaches the visitor as a 500; two later calls
// both write the count they read, so a burst is undercounted. Here a call is
// one statement, INSERT ... ON CONFLICT DO UPDATE ... RETURNING, that adds
// to the count while its window is open and starts a new window once it has
// passed; the database serialises calls on the key, so each one sees the
// count its own call made. The library keeps everything else: points,
// windows, blocks, `get` and `delete`.

export interface RateLimiterOptions {
  keyPrefix: string;
  points: number;
  /** The window, in seconds. */
  duration: number;
  /** Seconds a key stays refused once it goes past `points` (0: none). */
  blockDuration?: number;
}

interface Row {
  points: number;
  expire: Date | null;
}

// The statement per database: "add" counts within an open window (a key's
// window is open while its expiry is ahead, never when it has none) and
// starts a new one once it has passed; "reset" overwrites count and expiry.
function upsertSql(dialect: Dialect, reset: boolean) {
  const at = dialect === "postgresql" ? "CAST(? AS TIMESTAMP(3))" : "?";
  const row = `"RateLimiterFlexible"`;
  const open = `${row}."expire" > ${at}`;
  const set = reset
    ? `"points" = excluded."points", "expire" = excluded."expire"`
    : `"points" = CASE WHEN ${open} THEN ${row}."points" + excluded."points" ELSE excluded."points" END,
       "expire" = CASE WHEN ${open} THEN ${row}."expire" ELSE excluded."expire" END`;
  return bind(
    dialect,
    `INSERT INTO ${row} ("key", "points", "expire") VALUES (?, ?, ${at})
     ON CONFLICT ("key") DO UPDATE SET ${set}
     RETURNING "points", "expire"`,
  );
}

const UPSERT = {
  sqlite: { add: upsertSql("sqlite", false), reset: upsertSql("sqlite", true) },
  postgresql: { add: upsertSql("postgresql", false), reset: upsertSql("postgresql", true) },
} as const;

const CLEAR_EVERY_MS = 5 * 60_000;

class DatabaseRateLimiter extends RateLimiterPrisma {
  declare prismaClient: Db;
  private clearTimer?: NodeJS.Timeout;

  /**
   * Adds `points` to the key's count, in one statement. `forceExpire` (a
   * block) and a window of no length overwrite the count and the expiry, as
   * the library's own store does.
   */
  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Row> {
    const db = this.prismaClient;
    const dialect = dialectOf(db);
    const now = new Date();
    const expire = msDuration > 0 ? sqlDate(dialect, new Date(now.getTime() + msDuration)) : null;
    const reset = forceExpire || expire === null;
    const nowText = sqlDate(dialect, now);
    // Counting a call is a write even when the call is a GET (a storefront
    // look-up): the one kind of write a read may make besides an install.
    const [row] = await writeOnRead(
      "rate limit",
      async () =>
        await db.$queryRawUnsafe<{ points: number | bigint; expire: Date | string | null }[]>(
          UPSERT[dialect][reset ? "reset" : "add"],
          ...(reset ? [key, points, expire] : [key, points, expire, nowText, nowText]),
        ),
    );
    return { points: Number(row!.points), expire: row!.expire === null ? null : new Date(row!.expire) };
  }

  // The library's sweep leaves a failed delete unhandled, which ends the
  // process (a database restart would take the app down with it). This one
  // logs it and tries again at the next sweep.
  _clearExpiredHourAgo() {
    clearTimeout(this.clearTimer);
    this.clearTimer = setTimeout(() => {
      this.prismaClient.rateLimiterFlexible
        .deleteMany({ where: { expire: { lt: new Date(Date.now() - 3_600_000) } } })
        .catch((error: unknown) => console.warn("[rate-limit] expired counts not cleared:", error))
        .finally(() => this._clearExpiredHourAgo());
    }, CLEAR_EVERY_MS);
    this.clearTimer.unref();
  }
}

/** A limiter counting in the app's database (see above). */
export function createRateLimiter(options: RateLimiterOptions): RateLimiterPrisma {
  return new DatabaseRateLimiter({ storeClient: getDb(), ...options });
}
