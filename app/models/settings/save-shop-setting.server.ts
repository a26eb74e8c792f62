import type { Db } from "../../db.server";
import { bind, dialectOf, sqlDate } from "../../db/dialect";
import type { Tx } from "../../db/transaction";
import { withShopSetting } from "./shop-settings";

// Shop.settings holds keys that belong to different screens and jobs
// (payment, branding, mail, autotier, referrals...). Writing the whole text
// back after reading it loses a key another writer saved meanwhile (a job
// and a screen, two screens). So one key is saved in one step that reads and
// writes under the same lock: on SQLite one json_set statement (writes are
// serialised), on PostgreSQL the row locked (FOR UPDATE) until the write.
// An unreadable or non-object text counts as {} (shopSettingsObject), as before.

const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Saves `value` under `key` of the shop's settings, every other key kept; returns the new settings text. */
export async function saveShopSetting(client: Db | Tx, shopId: string, key: string, value: unknown): Promise<string> {
  if (!KEY.test(key)) throw new Error(`not a settings key: ${key}`);
  const dialect = dialectOf(client);
  const now = sqlDate(dialect, new Date());
  if (dialect === "sqlite") {
    const rows = await client.$queryRawUnsafe<{ settings: string }[]>(
      `UPDATE "Shop" SET "settings" = json_set(
         CASE WHEN json_valid("settings") AND json_type("settings") = 'object' THEN "settings" ELSE '{}' END,
         ?, json(?)), "updatedAt" = ?
       WHERE "id" = ? RETURNING "settings"`,
      `$.${key}`,
      JSON.stringify(value ?? null),
      now,
      shopId,
    );
    if (!rows[0]) throw new Error(`no shop ${shopId}`);
    return rows[0].settings;
  }
  const save = async (tx: Tx | Db) => {
    const [row] = await tx.$queryRawUnsafe<{ settings: string }[]>(
      bind(dialect, `SELECT "settings" FROM "Shop" WHERE "id" = ? FOR UPDATE`),
      shopId,
    );
    if (!row) throw new Error(`no shop ${shopId}`);
    const settings = withShopSetting(row.settings, key, value);
    await tx.$executeRawUnsafe(
      bind(dialect, `UPDATE "Shop" SET "settings" = ?, "updatedAt" = ?::timestamp(3) WHERE "id" = ?`),
      settings,
      now,
      shopId,
    );
    return settings;
  };
  // A lock lasts as long as its transaction: a client outside one gets its own.
  return "$transaction" in client ? client.$transaction((tx) => save(tx)) : save(client);
}
