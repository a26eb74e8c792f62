import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type SessionData, type SessionStorage } from "@remix-run/node";
import { getConfig } from "../../config.server";

// Login sessions kept in a database table, the cookie carrying only a signed
// random id: logging out (or a password change) ends a session on every app
// instance. Merchants and affiliates each get a cookie name and a table of
// their own, so an id of one kind can never be read as the other.

export interface SessionRows {
  create(row: { id: string; ownerId: string; data: string; expiresAt: Date }): Promise<unknown>;
  find(id: string): Promise<LiveRow | null>;
  update(id: string, data: string, expiresAt: Date | undefined): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

/** A session row as the storage reads it: its data (JSON) and its end. */
interface LiveRow {
  data: string;
  expiresAt: Date;
}

export interface DbSessionStorage<D extends SessionData> extends SessionStorage<D, D> {
  /**
   * The session row of the signed cookie, read by `read` (the row with what
   * the caller needs of its owner, in one query), with its parsed data; null
   * when there is no cookie, no row or the row has expired, the same rule as
   * getSession's.
   */
  liveRow<R extends LiveRow>(
    cookieHeader: string | null,
    read: (id: string) => Promise<R | null>,
  ): Promise<{ row: R; data: Partial<D> } | null>;
}

function isLive<R extends LiveRow>(row: R | null): row is R {
  return row !== null && row.expiresAt.getTime() > Date.now();
}

export function createDbSessionStorage<D extends SessionData>(options: {
  cookieName: string;
  maxAgeSeconds: number;
  /** The session data field naming the row's owner (userId, affiliateId). */
  ownerKey: keyof D & string;
  rows: SessionRows;
}): DbSessionStorage<D> {
  const config = getConfig();
  const cookie = createCookie(options.cookieName, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isHttps,
    path: "/",
    maxAge: options.maxAgeSeconds,
    secrets: [config.SESSION_SECRET],
  });
  const storage = createSessionStorage<D, D>({
    cookie,
    async createData(data, expires) {
      const owner = data[options.ownerKey];
      if (typeof owner !== "string" || !owner)
        throw new Error(`${options.cookieName}: session without ${options.ownerKey}`);
      const id = randomBytes(24).toString("base64url");
      await options.rows.create({
        id,
        ownerId: owner,
        data: JSON.stringify(data),
        expiresAt: expires ?? new Date(Date.now() + options.maxAgeSeconds * 1000),
      });
      return id;
    },
    async readData(id) {
      const row = await options.rows.find(id);
      return isLive(row) ? (JSON.parse(row.data) as Partial<D>) : null;
    },
    async updateData(id, data, expires) {
      await options.rows.update(id, JSON.stringify(data), expires);
    },
    async deleteData(id) {
      await options.rows.remove(id);
    },
  });
  return Object.assign(storage, {
    async liveRow<R extends LiveRow>(cookieHeader: string | null, read: (id: string) => Promise<R | null>) {
      const id: unknown = cookieHeader ? await cookie.parse(cookieHeader) : null;
      if (typeof id !== "string" || !id) return null;
      const row = await read(id);
      return isLive(row) ? { row, data: JSON.parse(row.data) as Partial<D> } : null;
    },
  });
}
