import type { Session } from "@remix-run/node";
import { getDb } from "../../db.server";
import { createDbSessionStorage, type DbSessionStorage } from "./db-session-storage.server";

// Merchant (admin and staff) login sessions, in the UserSession table.
// Affiliates have their own cookie and table (affiliate-session.server.ts),
// so the two kinds of session never mix.
export const MERCHANT_COOKIE = "__merchant_session";
const MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export interface MerchantSessionData {
  userId: string;
}

let storage: DbSessionStorage<MerchantSessionData> | undefined;

export function merchantSessionStorage(): DbSessionStorage<MerchantSessionData> {
  storage ??= createDbSessionStorage<MerchantSessionData>({
    cookieName: MERCHANT_COOKIE,
    maxAgeSeconds: MAX_AGE_SECONDS,
    ownerKey: "userId",
    rows: {
      create: ({ id, ownerId, data, expiresAt }) =>
        getDb().userSession.create({ data: { id, userId: ownerId, data, expiresAt } }),
      find: (id) => getDb().userSession.findUnique({ where: { id }, select: { data: true, expiresAt: true } }),
      update: (id, data, expiresAt) =>
        getDb().userSession.updateMany({ where: { id }, data: { data, ...(expiresAt ? { expiresAt } : {}) } }),
      remove: (id) => getDb().userSession.deleteMany({ where: { id } }),
    },
  });
  return storage;
}

export async function getMerchantSession(request: Request): Promise<Session<MerchantSessionData>> {
  return merchantSessionStorage().getSession(request.headers.get("Cookie"));
}

/**
 * The logged-in merchant user (active) with their shop, in one query: the
 * session row (by the cookie's id, unexpired) with its user and shop. The
 * row's userId is the session's userId (it is written once, at login).
 */
export async function merchantSessionUser(request: Request) {
  const live = await merchantSessionStorage().liveRow(request.headers.get("Cookie"), (id) =>
    getDb().userSession.findUnique({
      where: { id },
      select: { data: true, expiresAt: true, user: { include: { shop: true } } },
    }),
  );
  return live && live.row.user.status === "active" ? live.row.user : null;
}

export async function startMerchantSession(userId: string): Promise<string> {
  const s = merchantSessionStorage();
  const session = await s.getSession();
  session.set("userId", userId);
  return s.commitSession(session, { expires: new Date(Date.now() + MAX_AGE_SECONDS * 1000) });
}

export async function endMerchantSession(request: Request): Promise<string> {
  const s = merchantSessionStorage();
  return s.destroySession(await getMerchantSession(request));
}
