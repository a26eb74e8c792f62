import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { saveShopSetting } from "~/models/settings/save-shop-setting.server";
import { buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// Shop.settings keys belong to different screens and jobs: saving one key
// keeps every other, also when other keys are saved at the same moment (a
// whole-text read-modify-write lost one of two concurrent saves).
applyTestEnv();
useTestDatabase();

const settingsOf = async (id: string) =>
  JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id } })).settings) as Record<string, unknown>;

describe("saving one key of Shop.settings", () => {
  it("keeps the other keys, and every key of many saved at once", async () => {
    const shop = await buildShop();
    await getDb().shop.update({ where: { id: shop.id }, data: { settings: JSON.stringify({ kept: { a: 1 } }) } });
    const keys = ["payment", "branding", "mail", "autotier", "referrals", "promoteLink", "share", "mailDigest"];
    // Each in its own transaction that first reads the shop, as the screens' saves do.
    await Promise.all(
      keys.map((key, i) =>
        getDb().$transaction(async (tx) => {
          await tx.shop.findUniqueOrThrow({ where: { id: shop.id }, select: { settings: true } });
          return saveShopSetting(tx, shop.id, key, { n: i, text: `value "${key}"` });
        }),
      ),
    );
    const settings = await settingsOf(shop.id);
    expect(settings.kept).toEqual({ a: 1 });
    for (const [i, key] of keys.entries()) expect(settings[key], key).toEqual({ n: i, text: `value "${key}"` });
  });

  it("replaces an unreadable text with an object holding the key, and returns the saved text", async () => {
    const shop = await buildShop();
    await getDb().shop.update({ where: { id: shop.id }, data: { settings: "[1, 2" } });
    const text = await saveShopSetting(getDb(), shop.id, "mailDigest", "weekly");
    expect(JSON.parse(text)).toEqual({ mailDigest: "weekly" });
    expect(await settingsOf(shop.id)).toEqual({ mailDigest: "weekly" });
  });
});
