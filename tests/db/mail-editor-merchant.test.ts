import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import {
  listNotifications,
  notificationEditor,
  previewTemplate,
  sendTestEmail,
  setNotificationEnabled,
} from "~/models/notifications/notification-admin.server";
import { queueEmail } from "~/models/mail/outbox.server";
import { prepareNotification, shopLanguage } from "~/models/notifications/compose-notification.server";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// The Notifications editor, as a merchant meets it (issue 29, minors): the
// preview and the test e-mail show the merchant's own shop, not a sample
// one; and an e-mail that is always sent cannot be turned off anywhere.
applyTestEnv();
useTestDatabase();
useNoRenderUnderWriteLock();

async function merchant() {
  const shop = await getDb().shop.create({
    data: {
      domain: "nordlicht.myshopify.com",
      name: "Nordlicht Kerzen",
      url: "https://nordlicht.example",
      adminEmail: "owner@nordlicht.example",
      pricingPlan: "growth",
      language: "de",
      currency: "EUR",
    },
  });
  return { shop, db: shopDb(getDb(), shop.id) };
}

describe("the mail editor uses the merchant's shop", () => {
  it("previews with the shop's name, storefront link and currency", async () => {
    const { db } = await merchant();
    const { preview } = await previewTemplate(db, "affiliate.payout_sent", {
      subject: "{{ shop.name }}: {{ payout.amount }}",
      body: "{{ shop.url }}",
    });
    expect(preview.subject).toMatch(/^Nordlicht Kerzen: 120,00\s€$/);
    expect(preview.text).toContain("https://nordlicht.example");
    expect(preview.html + preview.text).not.toMatch(/Aurora|aurora-candles/);
  });

  it("sends the test e-mail with the shop's values, and lists them as the editor's samples", async () => {
    const { shop, db } = await merchant();
    await sendTestEmail(
      db,
      "affiliate.approved",
      { subject: "Welcome to {{ shop.name }}", body: "{{ referral_link }}" },
      "me@nordlicht.example",
    );
    const mail = await getDb().outboxEmail.findFirstOrThrow({ where: { shopId: shop.id, isTest: true } });
    expect(mail.subject).toBe("Welcome to Nordlicht Kerzen");
    // The link Settings › Promote link puts first: the short link, naming the shop.
    expect(mail.text).toMatch(/https?:\/\/[^/\s]+\/r\/nordlicht\/JANEDOE/);
    const editor = await notificationEditor(db, "affiliate.approved");
    expect(editor.variables.find((v) => v.name === "shop.name")?.sample).toBe("Nordlicht Kerzen");
  });
});

describe("an e-mail that is always sent", () => {
  it("is on in the list and the editor, and refuses to be turned off (409), changing nothing", async () => {
    const { db } = await merchant();
    const row = (await listNotifications(db)).notifications.find((n) => n.key === "affiliate.reset")!;
    expect(row).toMatchObject({ transactional: true, enabled: true });
    await expect(setNotificationEnabled(db, "affiliate.reset", false)).rejects.toMatchObject({ code: "conflict" });
    expect(await getDb().notificationTemplate.count()).toBe(0);
    expect((await notificationEditor(db, "affiliate.reset")).enabled).toBe(true);
  });

  it("is sent even when an older setting had turned it off", async () => {
    const { shop } = await merchant();
    await getDb().notificationTemplate.create({ data: { shopId: shop.id, key: "affiliate.reset", enabled: false } });
    const mail = await prepareNotification(getDb(), {
      shop,
      key: "affiliate.reset",
      to: "ana@aff.example",
      language: shopLanguage(shop.language),
      values: { "shop.name": shop.name, "shop.url": shop.url, reset_url: "https://x.example/r" },
      dedupeBy: null,
    });
    expect(mail).not.toBeNull();
    expect(await getDb().$transaction((tx) => queueEmail(tx, mail!))).not.toBeNull();
  });

  it("while an optional one can still be turned off", async () => {
    const { db } = await merchant();
    await setNotificationEnabled(db, "affiliate.commission", false);
    const row = (await listNotifications(db)).notifications.find((n) => n.key === "affiliate.commission")!;
    expect(row.enabled).toBe(false);
  });
});
