import { getDb } from "../../db.server";
import type { Shop } from "../../db/generated/sqlite";
import { AppError } from "../../lib/errors";
import { hashApiKey } from "../api-keys/api-key.server";
import { isDatabaseBusy } from "../../db/client.server";
import { writeOnRead } from "../../db/db-context";

// REST API authentication: "Authorization: Bearer <key>". Only the SHA-256 of
// a key is stored; a revoked key, or a key of an uninstalled shop, is refused
// like an unknown one. The key's shop scopes every query of the request.

export interface ApiContext {
  shop: Shop;
  apiKeyId: string;
}

const TOUCH_INTERVAL_MS = 60_000;

function unauthenticated(message: string) {
  return new AppError("unauthenticated", message, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });
}

export async function authenticateApiKey(request: Request): Promise<ApiContext> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
  if (!match) throw unauthenticated("Send an API key as Authorization: Bearer <key>.");
  const key = await getDb().apiKey.findUnique({ where: { keyHash: hashApiKey(match[1]!) }, include: { shop: true } });
  if (!key || key.revokedAt || key.shop.uninstalledAt) throw unauthenticated("The API key is not valid.");
  await touchApiKey(key.id, key.lastUsedAt);
  return { shop: key.shop, apiKeyId: key.id };
}

/** Records use at most once a minute; the condition keeps concurrent requests to one write. */
async function touchApiKey(id: string, lastUsedAt: Date | null) {
  const now = new Date();
  const cutoff = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  if (lastUsedAt && lastUsedAt > cutoff) return;
  // A GET of the API records it too (a bounded write, declared as such); the
  // request does not fail when the database is too busy to take it.
  await writeOnRead(
    "api key use",
    async () =>
      await getDb().apiKey.updateMany({
        where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: cutoff } }] },
        data: { lastUsedAt: now },
      }),
  ).catch((error: unknown) => {
    if (!isDatabaseBusy(error)) throw error;
  });
}
