import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { fixedT } from "~/i18n/i18next.server";
import { languageInfo } from "~/i18n/language-table";
import { translateError } from "~/i18n/messages";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Form messages in the page's language (ADR 020), over real HTTP against the
// built app: the affiliate's forms show zod's and the domain's messages in
// the affiliate's language; the admin's JSON answers carry the keys beside
// the English; the REST API answers in plain English, as before.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const PASSWORD = "affiliate password 1";
let shop: Awaited<ReturnType<typeof buildShop>>;
let handle: string;

async function shopIn(language: string) {
  shop = await buildShop({ language });
  handle = shop.domain.replace(".myshopify.com", "");
  await buildCampaign(shop.id);
}

const signupForm = (over: Record<string, string> = {}) => ({
  firstName: "Nora",
  lastName: "Quinn",
  email: "nora@aff.example",
  password: PASSWORD,
  terms: "on",
  ...over,
});

/** The text of the field's error under the form field (Polaris's InlineError). */
function fieldError(html: string, field: string): string | undefined {
  const match = new RegExp(`id="field-${field}Error"[^>]*>([\\s\\S]*?</div>[^<]*)</div>`).exec(html)?.[1];
  return match
    ?.replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .trim();
}

describe("the affiliate's forms", () => {
  beforeEach(() => shopIn("en"));

  it("show a Japanese affiliate's sign-up errors in Japanese", async () => {
    const res = await new HttpClient(server.url).postForm(
      `/portal/${handle}/signup?lang=jp`,
      signupForm({ firstName: "", email: "not-an-email", password: "short", language: "jp" }),
    );
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('lang="ja"');
    expect(fieldError(html, "firstName")).toBe("名を入力してください");
    expect(fieldError(html, "email")).toBe("有効なメールアドレスを入力してください");
    expect(fieldError(html, "password")).toBe("10文字以上で入力してください");
    expect(html).not.toContain("Enter your first name");
    expect(html).not.toContain("validation.");
    expect(await getDb().affiliate.count()).toBe(0);
  });

  it("follow the shop's language when the affiliate picked none, English for an English shop", async () => {
    const english = await new HttpClient(server.url).postForm(
      `/portal/${handle}/signup`,
      signupForm({ firstName: "" }),
    );
    expect(fieldError(await english.text(), "firstName")).toBe("Enter your first name");
    await shopIn("de");
    // With a terms link on the sign-up page, the terms must be accepted.
    await getDb().portalPage.create({
      data: {
        shopId: shop.id,
        kind: "signup",
        published: JSON.stringify({ form: { termsUrl: "https://store.example/terms" } }),
      },
    });
    const res = await new HttpClient(server.url).postForm(
      `/portal/${handle}/signup`,
      signupForm({ lastName: "x".repeat(81), terms: "" }),
    );
    const html = await res.text();
    expect(fieldError(html, "lastName")).toBe("Höchstens 80 Zeichen");
    expect(html).toContain("Akzeptieren Sie die Bedingungen des Programms, um sich zu registrieren");
  });

  it("show the login's refusal and the account settings' errors in the affiliate's language", async () => {
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    const { hashPassword } = await import("~/models/auth/password.server");
    await getDb().affiliate.update({
      where: { id: affiliate.id },
      data: { passwordHash: await hashPassword(PASSWORD), language: "jp" },
    });
    const client = new HttpClient(server.url);
    const wrong = await client.postForm(`/portal/${handle}/login?lang=jp`, {
      email: affiliate.email,
      password: "not the password",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("メールアドレスまたはパスワードが正しくありません。");

    await client.postForm(`/portal/${handle}/login`, { email: affiliate.email, password: PASSWORD });
    // Their saved language (jp) decides on the account pages.
    const profile = await client.postForm("/account/settings", {
      intent: "profile",
      firstName: " ",
      lastName: "Quinn",
      website: "ftp://example.com",
      language: "jp",
    });
    expect(profile.status).toBe(422);
    const html = await profile.text();
    expect(fieldError(html, "firstName")).toBe("名を入力してください");
    expect(fieldError(html, "website")).toBe("https:// で始まる完全なアドレスを入力してください");
    const password = await client.postForm("/account/settings", {
      intent: "password",
      current: "wrong password",
      password: "new password 12",
      confirm: "new password 12",
    });
    expect(fieldError(await password.text(), "current")).toBe("現在のパスワードが正しくありません");
  });
});

describe("the admin's JSON answers", () => {
  it("carry the English and the keys, which the page turns into the shop's language", async () => {
    const admin = await buildShop({ language: "de" });
    const user = await buildUser(admin.id);
    const client = new HttpClient(server.url);
    await client.postForm("/login", { email: user.email, password: TEST_PASSWORD });
    const res = await client.postJson("/api/shop", {
      money_format: "USD",
      setting: { general: { referral_param: "my ref" } },
    });
    expect(res.status).toBe(422);
    const { error } = await res.json();
    expect(error.fields.money_format).toMatch(/^Include one of these placeholders: \{\{amount\}\}/);
    expect(error.fieldKeys["setting.general.referral_param"]).toEqual({ key: "Settings:validation.referralParam" });
    const page = translateError(fixedT(languageInfo("de")!, ["Settings", "Global"]), error);
    expect(page.fields!["setting.general.referral_param"]).toBe(
      "1 bis 20 Buchstaben, Ziffern, - oder _ verwenden, beginnend mit einem Buchstaben",
    );
    expect(page.fields!.money_format).toContain("{{amount}}");
  });
});

describe("the REST API", () => {
  it("answers in English only: the same messages as before, zod's own for rules without one, no keys", async () => {
    const apiShop = await buildShop({ language: "jp" });
    const { key } = await buildApiKey(apiShop.id);
    const api = new ApiClient(server.url, key);
    const res = await api.post("/api/v1/campaigns", { name: " ", cookie_days: 0, status: "bogus" });
    expect(res.status).toBe(422);
    const { error } = await res.json();
    expect(error.fields.name).toBe("Enter a name");
    expect(error.fields.cookie_days).toBe("Use at least 1");
    expect(error.fields.status).toMatch(/^Invalid enum value/);
    expect(error).not.toHaveProperty("fieldKeys");
    expect(error).not.toHaveProperty("messageKey");
    const affiliate = await api.post("/api/v1/affiliates", { email: "nope" });
    const body = await affiliate.json();
    expect(body.error.fields.email).toBe("Enter a valid e-mail address");
    expect(JSON.stringify(body)).not.toMatch(/validation\./);
  });
});
