import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import { getConfig } from "../../config.server";
import { getDb } from "../../db.server";

// Merchant (admin and staff) login sessions. The cookie holds only a signed
// random id; the data lives in UserSession so logging out, or a password
// change, ends the session on every app instance. Affiliates get a separate
// cookie of their own, so the two kinds of session never mix.
export const MERCHANT_COOKIE = "__merchant_session";
const MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export interface MerchantSessionData {
  userId: string;
}

type Storage = ReturnType<typeof createSessionStorage<MerchantSessionData>>;
let storage: Storage | undefined;

export function merchantSessionStorage(): Storage {
  if (storage) return storage;
  const config = getConfig();
  const cookie = createCookie(MERCHANT_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isHttps,
    path: "/",
    maxAge: MAX_AGE_SECONDS,
    secrets: [config.SESSION_SECRET],
  });
  storage = createSessionStorage<MerchantSessionData>({
    cookie,
    async createData(data, expires) {
      const db = getDb();
      const id = randomBytes(24).toString("base64url");
      if (!data.userId) throw new Error("merchant session without a user");
      await db.userSession.create({
        data: {
          id,
          userId: data.userId,
          data: JSON.stringify(data),
          expiresAt: expires ?? new Date(Date.now() + MAX_AGE_SECONDS * 1000),
        },
      });
      return id;
    },
    async readData(id) {
      const row = await getDb().userSession.findUnique({ where: { id } });
      if (!row || row.expiresAt.getTime() <= Date.now()) return null;
      return JSON.parse(row.data) as MerchantSessionData;
    },
    async updateData(id, data, expires) {
      await getDb().userSession.updateMany({
        where: { id },
        data: { data: JSON.stringify(data), ...(expires ? { expiresAt: expires } : {}) },
      });
    },
    async deleteData(id) {
      await getDb().userSession.deleteMany({ where: { id } });
    },
  });
  return storage;
}

export function resetSessionStorageForTests() {
  storage = undefined;
}

export async function getMerchantSession(request: Request): Promise<Session<MerchantSessionData>> {
  return merchantSessionStorage().getSession(request.headers.get("Cookie"));
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
