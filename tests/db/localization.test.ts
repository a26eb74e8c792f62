import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { shopDb } from "~/db/shop-db.server";
import { affiliateLanguage, affiliateTranslator } from "~/models/affiliate-account/affiliate-language.server";
import { logInAs, type AdminClient } from "../support/admin-client";
import { buildAffiliate, buildCampaign, buildShop, buildUser } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Localization over real HTTP against the built app: which language each
// page is rendered in and why, what the browser is handed with the document,
// and the merchant's own wording (Settings > Translations) winning over the
// shipped files.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const TRANSLATIONS = "routes/$role.settings.translations";
const PASSWORD = "affiliate password 1";

function htmlAttributes(html: string) {
  const tag = /<html([^>]*)>/.exec(html)?.[1] ?? "";
  return { lang: /lang="([^"]*)"/.exec(tag)?.[1], dir: /dir="([^"]*)"/.exec(tag)?.[1] };
}

/** The translations the server handed the browser with the document. */
function payload(html: string) {
  const json = /<script[^>]* id="i18n-data"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
  return json
    ? (JSON.parse(json) as { tag: string; code: string; baseUrl: string; resources: Record<string, unknown> })
    : null;
}

async function admin(language: string): Promise<{ client: AdminClient; shop: Awaited<ReturnType<typeof buildShop>> }> {
  const shop = await buildShop({ language });
  const email = `owner-${language}-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shop.id, { email });
  return { client: await logInAs(server.url, "admin", email), shop };
}

async function affiliateWithLogin(shopId: string, language: string | null) {
  const campaign = await buildCampaign(shopId);
  const affiliate = await buildAffiliate(shopId, campaign.id);
  const { hashPassword } = await import("~/models/auth/password.server");
  await getDb().affiliate.update({
    where: { id: affiliate.id },
    data: { passwordHash: await hashPassword(PASSWORD), language },
  });
  return affiliate;
}

async function logInAffiliate(handle: string, email: string, headers: Record<string, string> = {}) {
  const client = new HttpClient(server.url);
  const res = await client.postForm(`/portal/${handle}/login`, { email, password: PASSWORD }, headers);
  expect(res.status).toBe(302);
  return client;
}

const handleOf = (shop: { domain: string }) => shop.domain.replace(".myshopify.com", "");

describe("the admin follows the shop's language", () => {
  it.each([
    ["de", "de", "Kampagnen"],
    ["jp", "ja", "キャンペーン"],
    ["en", "en", "Campaigns"],
  ])("shop language %s: <html lang=%s>, the page and its payload in that language", async (code, tag, title) => {
    const { client } = await admin(code);
    const res = await client.document("/admin/campaigns");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(htmlAttributes(html)).toEqual({ lang: tag, dir: "ltr" });
    expect(html).toMatch(new RegExp(`<h1[^>]*><span[^>]*>${title}</span></h1>`));
    const data = payload(html)!;
    expect(data).toMatchObject({ tag, code, baseUrl: "/locales" });
    // The browser starts from exactly the namespaces the server rendered: no request, no flash of English.
    expect(Object.keys(data.resources)).toEqual(expect.arrayContaining(["Global", "Campaigns", "TopMenu"]));
    if (code !== "en") expect(JSON.stringify(data.resources)).not.toContain('"title":"Campaigns"');
  });

  it("hands the browser Polaris's own strings in the shop's language", async () => {
    const { client } = await admin("de");
    const data = payload(await (await client.document("/admin/sales")).text())!;
    expect(JSON.stringify(data.resources.polaris)).toContain("Weiter"); // Polaris's German "Next"
  });

  it("formats money and dates in the shop's language", async () => {
    const { client, shop } = await admin("de");
    await getDb().shop.update({ where: { id: shop.id }, data: { currency: "EUR" } });
    const html = await (await client.document("/admin/plans")).text();
    // Plan prices are in US dollars, written the German way.
    expect(html).toMatch(/\d+,00\s\$/);
  });

  it("keeps a shop whose stored language is not a full-set one in English", async () => {
    const { client } = await admin("ar");
    expect(htmlAttributes(await (await client.document("/admin/dashboard")).text())).toEqual({
      lang: "en",
      dir: "ltr",
    });
  });

  it("can be set only to the full set", async () => {
    const { client, shop } = await admin("en");
    const refused = await client.http.postJson("/api/shop", { setting: { general: { language: "ar" } } });
    expect(refused.status).toBe(422);
    const accepted = await client.http.postJson("/api/shop", { setting: { general: { language: "jp" } } });
    expect(accepted.status).toBe(200);
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).language).toBe("jp");
    expect(htmlAttributes(await (await client.document("/admin/dashboard")).text()).lang).toBe("ja");
  });
});

describe("the affiliate side", () => {
  let shop: Awaited<ReturnType<typeof buildShop>>;
  beforeEach(async () => {
    shop = await buildShop({ language: "de" });
  });

  it("is in the shop's language for a visitor, whatever the browser says", async () => {
    const res = await new HttpClient(server.url).get(`/portal/${handleOf(shop)}/`, { "accept-language": "fr" });
    const html = await res.text();
    expect(htmlAttributes(html)).toEqual({ lang: "de", dir: "ltr" });
    expect(html).toContain("Jetzt mitmachen");
    // Server-rendered only: no scripts, so no payload either.
    expect(payload(html)).toBeNull();
  });

  it("takes the language picked on the page, right to left for Arabic, and keeps it in the portal's links", async () => {
    const html = await (await new HttpClient(server.url).get(`/portal/${handleOf(shop)}/?lang=ar`)).text();
    expect(htmlAttributes(html)).toEqual({ lang: "ar", dir: "rtl" });
    expect(html).toContain("انضم الآن");
    expect(html).toContain(`href="/portal/${handleOf(shop)}/signup?lang=ar"`);
    // The language menu offers every affiliate language, the current one selected.
    expect(html).toMatch(/<option value="ar" lang="ar" dir="rtl" selected=""/);
    expect(html).toContain('<option value="sw" lang="sw" dir="ltr"');
    expect(html).not.toContain('<option value="bo"');
  });

  it("ignores ?lang= for a language affiliates cannot use", async () => {
    const html = await (await new HttpClient(server.url).get(`/portal/${handleOf(shop)}/?lang=bo`)).text();
    expect(htmlAttributes(html).lang).toBe("de");
  });

  it("uses the browser's language where no shop is known", async () => {
    const res = await new HttpClient(server.url).get("/account/login-needed", { "accept-language": "ja-JP,ja;q=0.9" });
    const html = await res.text();
    expect(htmlAttributes(html)).toEqual({ lang: "ja", dir: "ltr" });
  });

  it("follows the affiliate's saved choice on their account pages, else the shop's", async () => {
    const own = await affiliateWithLogin(shop.id, "jp");
    const client = await logInAffiliate(handleOf(shop), own.email);
    const html = await (await client.get("/account")).text();
    expect(htmlAttributes(html).lang).toBe("ja");
    expect(html).toContain("ダッシュボード");

    const plain = await affiliateWithLogin(shop.id, null);
    const other = await logInAffiliate(handleOf(shop), plain.email);
    expect(htmlAttributes(await (await other.get("/account/sales")).text()).lang).toBe("de");
  });

  it("shows another shop's portal in that shop's language, not the affiliate's", async () => {
    const own = await affiliateWithLogin(shop.id, "jp");
    const client = await logInAffiliate(handleOf(shop), own.email);
    const elsewhere = await buildShop({ language: "fr" });
    expect(htmlAttributes(await (await client.get(`/portal/${handleOf(elsewhere)}/`)).text()).lang).toBe("fr");
  });

  it("saves any affiliate language in account settings, and refuses a Global-only one", async () => {
    const own = await affiliateWithLogin(shop.id, null);
    const client = await logInAffiliate(handleOf(shop), own.email);
    const form = { intent: "profile", firstName: "Test", lastName: "Affiliate", website: "" };
    expect((await client.postForm("/account/settings", { ...form, language: "sw" })).status).toBe(302);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: own.id } })).language).toBe("sw");
    expect(htmlAttributes(await (await client.get("/account/settings")).text()).lang).toBe("sw");
    expect((await client.postForm("/account/settings", { ...form, language: "bo" })).status).toBe(422);
    expect((await getDb().affiliate.findUniqueOrThrow({ where: { id: own.id } })).language).toBe("sw");
  });

  it("keeps the language picked on the sign-up page as the new affiliate's own", async () => {
    await getDb().campaign.create({ data: { shopId: shop.id, name: "Default", status: "active", isDefault: true } });
    const client = new HttpClient(server.url);
    const page = await (await client.get(`/portal/${handleOf(shop)}/signup?lang=he`)).text();
    expect(htmlAttributes(page)).toEqual({ lang: "he", dir: "rtl" });
    expect(page).toContain(`action="/portal/${handleOf(shop)}/signup?lang=he"`);
    const res = await client.postForm(`/portal/${handleOf(shop)}/signup?lang=he`, {
      firstName: "Noa",
      lastName: "Levi",
      email: "noa@aff.example",
      password: PASSWORD,
      terms: "on",
      language: "he",
    });
    expect(res.status).toBe(200);
    expect(htmlAttributes(await res.text()).dir).toBe("rtl");
    const created = await getDb().affiliate.findFirstOrThrow({ where: { shopId: shop.id, email: "noa@aff.example" } });
    expect(created.language).toBe("he");
  });

  it("answers which language an affiliate's e-mails are in, with the shop's wording", async () => {
    const db = shopDb(getDb(), shop.id);
    const chose = await affiliateWithLogin(shop.id, "ar");
    const follows = await affiliateWithLogin(shop.id, null);
    expect((await affiliateLanguage(db, chose.id)).tag).toBe("ar");
    expect((await affiliateLanguage(db, follows.id)).code).toBe("de");
    await db.translationOverride.create({
      data: { shopId: shop.id, language: "de", namespace: "Account.Common", key: "landing.join", value: "Los geht's" },
    });
    const { t } = await affiliateTranslator(db, follows.id);
    expect(t("Account.Common:landing.join")).toBe("Los geht's");
    expect(t("Account.Common:login.submit")).toBe("Anmelden");
    // Another shop's affiliate is not this shop's to ask about.
    const other = await buildShop();
    await expect(affiliateLanguage(shopDb(getDb(), other.id), chose.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("Settings > Translations", () => {
  it("lists the texts of a language a page at a time, searched on the server", async () => {
    const { client } = await admin("de");
    const res = await client.load("/admin/settings/translations", TRANSLATIONS);
    expect(res.status).toBe(200);
    const first = await res.json();
    expect(first).toMatchObject({ language: "de", page: 1, changed: false, q: "" });
    expect(first.rows).toHaveLength(25);
    expect(first.total).toBeGreaterThan(200);
    expect(first.namespaces).toEqual(expect.arrayContaining(["Account.Common", "Global", "Mails"]));
    expect(first.namespaces).not.toContain("Campaigns");

    const found = await (
      await client.load("/admin/settings/translations?language=ar&q=landing.join", TRANSLATIONS)
    ).json();
    expect(found.rows).toEqual([
      { namespace: "Account.Common", key: "landing.join", english: "Join now", shipped: "انضم الآن", override: null },
    ]);
    expect(found.namespaces).not.toContain("Mails");

    const last = await (await client.load(`/admin/settings/translations?page=${first.pages}`, TRANSLATIONS)).json();
    expect(last.page).toBe(first.pages);
    // A hand-edited address still shows the list.
    const odd = await client.load("/admin/settings/translations?page=-4&language=zz&ns=Campaigns", TRANSLATIONS);
    expect(odd.status).toBe(200);
  });

  it("saves the merchant's wording, which wins on the portal; reset brings the shipped text back", async () => {
    const { client, shop } = await admin("de");
    const other = await buildShop({ language: "de" });
    const save = await client.act("/admin/settings/translations", TRANSLATIONS, {
      intent: "save",
      language: "de",
      namespace: "Account.Common",
      key: "landing.heading",
      value: "Verdiene mit {{shop}} – ganz einfach",
    });
    expect(save.status).toBe(200);
    expect(await save.json()).toMatchObject({ key: "Account.Common:landing.heading", reset: false });

    const visitor = new HttpClient(server.url);
    expect(await (await visitor.get(`/portal/${handleOf(shop)}/`)).text()).toContain(
      `Verdiene mit ${shop.name} – ganz einfach`,
    );
    // Another shop keeps the shipped text, and other languages of this shop too.
    expect(await (await visitor.get(`/portal/${handleOf(other)}/`)).text()).toContain(
      `Verdienen Sie mit ${other.name}`,
    );
    expect(await (await visitor.get(`/portal/${handleOf(shop)}/?lang=fr`)).text()).not.toContain("ganz einfach");

    const listed = await (await client.load("/admin/settings/translations?changed=1", TRANSLATIONS)).json();
    expect(listed.rows.map((r: { key: string; override: string }) => [r.key, r.override])).toEqual([
      ["landing.heading", "Verdiene mit {{shop}} – ganz einfach"],
    ]);
    expect(listed.languages.find((l: { code: string }) => l.code === "de").changed).toBe(1);

    const reset = await client.act("/admin/settings/translations", TRANSLATIONS, {
      intent: "reset",
      language: "de",
      namespace: "Account.Common",
      key: "landing.heading",
    });
    expect(await reset.json()).toMatchObject({ reset: true });
    expect(await getDb().translationOverride.count()).toBe(0);
    expect(await (await visitor.get(`/portal/${handleOf(shop)}/`)).text()).toContain(`Verdienen Sie mit ${shop.name}`);
  });

  it("shows another instance's change at once: pages read the overrides again when the shop's version moved", async () => {
    const { shop } = await admin("de");
    const visitor = new HttpClient(server.url);
    const portal = `/portal/${handleOf(shop)}/`;
    expect(await (await visitor.get(portal)).text()).toContain(`Verdienen Sie mit ${shop.name}`);
    // What changeTranslation commits on another app instance: the row and the raised version, together.
    await getDb().$transaction([
      getDb().translationOverride.create({
        data: {
          shopId: shop.id,
          language: "de",
          namespace: "Account.Common",
          key: "landing.heading",
          value: "Neu hier",
        },
      }),
      getDb().shop.update({ where: { id: shop.id }, data: { translationsVersion: { increment: 1 } } }),
    ]);
    expect(await (await visitor.get(portal)).text()).toContain("Neu hier");
  });

  it("applies overrides of Global to the admin's own pages too", async () => {
    const { client } = await admin("de");
    await client.act("/admin/settings/translations", TRANSLATIONS, {
      intent: "save",
      language: "de",
      namespace: "Global",
      key: "notFound.heading",
      value: "Hier ist nichts",
    });
    const html = await (await client.document("/admin/settings/translations")).text();
    // In the payload, so the browser shows it too, and in the overrides for namespaces it loads later.
    expect(html).toContain("Hier ist nichts");
  });

  it.each([
    ["a lost placeholder", { key: "landing.heading", value: "Verdiene mit uns" }, 422, "value"],
    ["an invented placeholder", { key: "landing.join", value: "Los {{name}}" }, 422, "value"],
    ["an empty text", { key: "landing.join", value: "   " }, 422, "value"],
    ["a text too long", { key: "landing.join", value: "x".repeat(2001) }, 422, "value"],
    ["a key that does not exist", { key: "landing.nothing", value: "x" }, 404, null],
    ["a namespace that is no portal text", { namespace: "Campaigns", key: "title", value: "x" }, 422, "namespace"],
    ["a language affiliates cannot use", { language: "bo", key: "landing.join", value: "x" }, 422, "language"],
  ])("refuses %s, saving nothing", async (_name, change, status, field) => {
    const { client } = await admin("de");
    const res = await client.act("/admin/settings/translations", TRANSLATIONS, {
      intent: "save",
      language: "de",
      namespace: "Account.Common",
      ...change,
    });
    expect(res.status).toBe(status);
    const body = await res.json();
    if (field) expect(Object.keys(body.error.fields)).toEqual([field]);
    expect(await getDb().translationOverride.count()).toBe(0);
  });

  it("is closed to staff without the settings area", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { role: "staff", email: "staff-no-settings@example.com", permissions: ["sales"] });
    const staff = await logInAs(server.url, "staff", "staff-no-settings@example.com");
    expect((await staff.load("/staff/settings/translations", TRANSLATIONS)).status).toBe(403);
    const res = await staff.act("/staff/settings/translations", TRANSLATIONS, {
      intent: "save",
      language: "en",
      namespace: "Global",
      key: "save",
      value: "Keep",
    });
    expect(res.status).toBe(403);
    expect(await getDb().translationOverride.count()).toBe(0);
  });
});

describe("translation files", () => {
  it("are served per language and namespace, the pseudo-locale made from English in tests", async () => {
    const http = new HttpClient(server.url);
    const de = await http.get("/locales/de/Campaigns.json");
    expect(de.status).toBe(200);
    expect((await de.json()).title).toBe("Kampagnen");
    const pseudo = await http.get("/locales/pseudo/Global.json");
    expect(pseudo.status).toBe(200);
    expect((await pseudo.json()).save).toMatch(/^\[Šàṽé .+\]$/);
    expect((await http.get("/locales/pseudo/Nope.json")).status).toBe(404);
    expect((await http.get("/locales/xx/Global.json")).status).toBe(404);
  });

  it.each([
    ["de-DE,de;q=0.9", "de", "ltr", "Formular nicht angenommen"],
    ["ar", "ar", "rtl", "لم يُقبل النموذج"],
    ["tk", "tk", "ltr", "Forma kabul edilmedi"], // a Global-only language: refusals are Global texts
  ])("refuse at the server's door in the browser's language (%s)", async (acceptLanguage, lang, dir, title) => {
    const res = await new HttpClient(server.url).postForm(
      "/portal/any-shop/login",
      { email: "a@b.example", password: "x" },
      { origin: "https://elsewhere.example", accept: "text/html", "accept-language": acceptLanguage },
    );
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(htmlAttributes(html)).toEqual({ lang, dir });
    expect(html).toContain(`<h1>${title}</h1>`);
  });
});
