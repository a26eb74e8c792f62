import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type SessionData, type SessionStorage } from "@remix-run/node";
import { getConfig } from "../../config.server";

// Login sessions kept in a database table, the cookie carrying only a signed
// random id: logging out (or a password change) ends a session on every app
// instance. Merchants and affiliates each get a cookie name and a table of
// their own, so an id of one kind can never be read as the other.

export interface SessionRows {
  create(row: { id: string; ownerId: string; data: string; expiresAt: Date }): Promise<unknown>;
  find(id: string): Promise<{ data: string; expiresAt: Date } | null>;
  update(id: string, data: string, expiresAt: Date | undefined): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

export function createDbSessionStorage<D extends SessionData>(options: {
  cookieName: string;
  maxAgeSeconds: number;
  /** The session data field naming the row's owner (userId, affiliateId). */
  ownerKey: keyof D & string;
  rows: SessionRows;
}): SessionStorage<D, D> {
  const config = getConfig();
  const cookie = createCookie(options.cookieName, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isHttps,
    path: "/",
    maxAge: options.maxAgeSeconds,
    secrets: [config.SESSION_SECRET],
  });
  return createSessionStorage<D, D>({
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
      if (!row || row.expiresAt.getTime() <= Date.now()) return null;
      return JSON.parse(row.data) as Partial<D>;
    },
    async updateData(id, data, expires) {
      await options.rows.update(id, JSON.stringify(data), expires);
    },
    async deleteData(id) {
      await options.rows.remove(id);
    },
  });
}
