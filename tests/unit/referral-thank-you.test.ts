import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  blockTexts,
  buildLinkRequest,
  copyText,
  currencyDigits,
  LINK_PATH,
  MAX_ATTEMPTS,
  nextStep,
  normalizeAppUrl,
  offerMessage,
  readLinkAnswer,
  type Formatters,
  type LinkAnswer,
} from "../../extensions/referral-thank-you/src/referral-logic";
import { checkoutLinkRequestSchema } from "~/models/referrals/checkout-link.server";

// The refer-a-friend Checkout UI extension (extensions/referral-thank-you):
// its logic without Shopify's runtime, its locale files, and its toml.

const DIR = path.resolve(__dirname, "../../extensions/referral-thank-you");
const ORDER = "gid://shopify/Order/5001";
type Ready = Extract<LinkAnswer, { status: "ready" }>;

const ready = (over: Partial<Ready> = {}): Ready => ({
  status: "ready",
  shareUrl: "https://shop.example/?invite=abc234defg",
  friendCode: "ANA-10",
  firstName: "Ana",
  friendOffer: { type: "percentage", value: 1000, currency: "EUR" },
  ...over,
});

// What Shopify's i18n.formatNumber / formatCurrency do, in English.
const english: Formatters = {
  formatNumber: (n, o) => new Intl.NumberFormat("en-US", o).format(n),
  formatCurrency: (n, o) => new Intl.NumberFormat("en-US", o).format(n),
};

type Tree = { [key: string]: string | Tree };
const locale = (file: string) => JSON.parse(readFileSync(path.join(DIR, "locales", file), "utf8")) as Tree;
const flat = (tree: Tree, prefix = ""): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === "string" ? [[prefix + k, v]] : Object.entries(flat(v, `${prefix}${k}.`)),
    ),
  );

/** Shopify's i18n.translate over one locale file: {{name}} placeholders; a missing key fails the test. */
function translator(file = "en.default.json") {
  const keys = flat(locale(file));
  return (key: string, values: Record<string, string | number> = {}) => {
    const text = keys[key];
    if (text === undefined) throw new Error(`no key ${key} in ${file}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
  };
}

describe("buildLinkRequest", () => {
  it("posts the order, e-mail and first name to the app with the session token", () => {
    const request = buildLinkRequest("https://app.example/", "tok.en.jwt", {
      orderId: ORDER,
      email: " ana@example.com ",
      firstName: " Ana ",
    });
    expect(request).toEqual({
      url: `https://app.example${LINK_PATH}`,
      init: {
        method: "POST",
        headers: { Authorization: "Bearer tok.en.jwt", "Content-Type": "application/json" },
        body: JSON.stringify({ orderId: ORDER, email: "ana@example.com", firstName: "Ana" }),
      },
    });
    // The app's own schema accepts what the block sends.
    expect(checkoutLinkRequestSchema.safeParse(JSON.parse(request!.init.body)).success).toBe(true);
  });

  it.each([
    ["no app URL", "", { orderId: ORDER }],
    ["the placeholder is not a URL", "set-me", { orderId: ORDER }],
    ["plain http to another host", "http://app.example", { orderId: ORDER }],
    ["no order yet", "https://app.example", { orderId: null }],
    ["an order id that is not a GID", "https://app.example", { orderId: "1001" }],
  ])("asks nothing when %s", (_label, url, facts) => {
    expect(buildLinkRequest(url, "token", facts)).toBeNull();
  });

  it("leaves out an e-mail that is not one and cuts a long first name", () => {
    const body = JSON.parse(
      buildLinkRequest("http://localhost:3000", "t", {
        orderId: ORDER,
        email: "phone-only",
        firstName: "x".repeat(80),
      })!.init.body,
    );
    expect(body).toEqual({ orderId: ORDER, firstName: "x".repeat(60) });
  });

  it.each([
    ["https://app.example/", "https://app.example"],
    ["https://app.example/base//", "https://app.example/base"],
    ["http://127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["ftp://app.example", null],
  ])("normalizes the app URL %s", (raw, expected) => {
    expect(normalizeAppUrl(raw)).toBe(expected);
  });
});

describe("readLinkAnswer and nextStep", () => {
  it.each<[string, number, unknown, LinkAnswer]>([
    ["a link", 200, { ...ready() }, ready()],
    ["a link without a code yet", 200, { ...ready(), friendCode: null }, ready({ friendCode: null })],
    ["an empty code", 200, { ...ready(), friendCode: "" }, ready({ friendCode: null })],
    ["the program off", 200, { status: "off" }, { status: "off" }],
    ["pending", 200, { status: "pending", retryAfterMs: 3000 }, { status: "pending", retryAfterMs: 3000 }],
    ["pending asking too soon", 200, { status: "pending", retryAfterMs: 5 }, { status: "pending", retryAfterMs: 1000 }],
    [
      "pending asking too late",
      200,
      { status: "pending", retryAfterMs: 1e9 },
      { status: "pending", retryAfterMs: 10_000 },
    ],
    ["a refused token", 401, null, { status: "off" }],
    ["someone else's order", 403, { error: { code: "forbidden" } }, { status: "off" }],
    ["a server error", 500, { status: "ready" }, { status: "off" }],
    ["a link that is not a URL", 200, { ...ready(), shareUrl: "javascript:alert(1)" }, { status: "off" }],
    [
      "an unknown offer",
      200,
      { ...ready(), friendOffer: { type: "gift", value: 1, currency: "EUR" } },
      { status: "off" },
    ],
    ["not an object", 200, "ready", { status: "off" }],
  ])("reads %s", (_label, status, body, expected) => {
    expect(readLinkAnswer(status, body)).toEqual(expected);
  });

  it("shows a link, asks again while pending up to the last attempt, then hides", () => {
    expect(nextStep(ready(), 1)).toEqual({ kind: "show", answer: ready() });
    expect(nextStep({ status: "pending", retryAfterMs: 3000 }, 1)).toEqual({ kind: "retry", afterMs: 3000 });
    expect(nextStep({ status: "pending", retryAfterMs: 3000 }, MAX_ATTEMPTS - 1).kind).toBe("retry");
    expect(nextStep({ status: "pending", retryAfterMs: 3000 }, MAX_ATTEMPTS)).toEqual({ kind: "hide" });
    expect(nextStep({ status: "off" }, 1)).toEqual({ kind: "hide" });
  });
});

describe("what the block says", () => {
  it.each([
    [{ type: "percentage", value: 1000, currency: "EUR" }, "offer.percentage", "10%"],
    [{ type: "percentage", value: 1250, currency: "EUR" }, "offer.percentage", "12.5%"],
    [{ type: "fixed_amount", value: 1000, currency: "EUR" }, "offer.fixed_amount", "€10.00"],
    [{ type: "fixed_amount", value: 500, currency: "JPY" }, "offer.fixed_amount", "¥500"],
    [{ type: "fixed_amount", value: 1500, currency: "BHD" }, "offer.fixed_amount", "BHD\u00a01.500"],
  ] as const)("formats the friend's reward %o", (offer, key, discount) => {
    expect(offerMessage(offer, english)).toEqual({ key, values: { discount } });
  });

  it("says free shipping without an amount", () => {
    expect(offerMessage({ type: "free_shipping", value: 0, currency: "USD" }, english)).toEqual({
      key: "offer.free_shipping",
      values: {},
    });
  });

  it("knows the decimals of a currency, and guesses 2 for a code Intl does not know", () => {
    expect([currencyDigits("EUR"), currencyDigits("JPY"), currencyDigits("KWD"), currencyDigits("??")]).toEqual([
      2, 0, 3, 2,
    ]);
  });

  it("puts the texts together in English, with the buyer's name and code when there are", () => {
    const t = translator();
    expect(blockTexts(ready(), t, english)).toEqual({
      heading: "Ana, invite your friends",
      offer: "Your friends get 10% off their order with your link.",
      linkLabel: "Your share link",
      copy: "Copy link",
      copied: "Link copied",
      code: "Or give them your code: ANA-10",
    });
    const plain = blockTexts(ready({ firstName: " ", friendCode: null }), t, english);
    expect(plain.heading).toBe("Invite your friends");
    expect(plain.code).toBeNull();
  });

  it("copies the share link itself", () => {
    expect(copyText(ready())).toBe("https://shop.example/?invite=abc234defg");
  });
});

describe("the extension's files", () => {
  const SHOPIFY_LOCALES = ["de", "en.default", "es", "fr", "it", "ja", "nl", "pt-BR", "vi", "zh-CN"];

  it("ships the full set of languages under Shopify's locale file names", () => {
    expect(
      readdirSync(path.join(DIR, "locales"))
        .map((f) => f.replace(/\.json$/, ""))
        .sort(),
    ).toEqual([...SHOPIFY_LOCALES].sort());
  });

  it.each(SHOPIFY_LOCALES.filter((l) => l !== "en.default"))(
    "%s has every English key, translated, with the same placeholders",
    (lang) => {
      const source = flat(locale("en.default.json"));
      const other = flat(locale(`${lang}.json`));
      expect(Object.keys(other).sort()).toEqual(Object.keys(source).sort());
      const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      for (const [key, text] of Object.entries(other)) {
        expect(text.trim(), `${lang} ${key}`).not.toBe("");
        expect(text, `${lang} ${key} is English`).not.toBe(source[key]);
        expect(placeholders(text), `${lang} ${key}`).toEqual(placeholders(source[key]!));
      }
      // Every text the block shows resolves in this language too.
      const texts = blockTexts(ready(), translator(`${lang}.json`), english);
      expect(Object.values(texts).join(" ")).not.toMatch(/\{\{|undefined/);
    },
  );

  it("is a ui_extension on the app's API version, on both pages, allowed to call the app", () => {
    const toml = readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8");
    const appToml = readFileSync(path.resolve(__dirname, "../../shopify.app.toml"), "utf8");
    const appVersion = /^api_version\s*=\s*"([^"]+)"/m.exec(appToml)![1];
    expect(/^api_version\s*=\s*"([^"]+)"/m.exec(toml)![1]).toBe(appVersion);
    expect(/^\s*type\s*=\s*"([^"]+)"/m.exec(toml)![1]).toBe("ui_extension");
    const targets = [...toml.matchAll(/^\s*module\s*=\s*"([^"]+)"\s*\n\s*target\s*=\s*"([^"]+)"/gm)].map((m) => ({
      module: m[1]!,
      target: m[2]!,
    }));
    expect(targets.map((t) => t.target)).toEqual([
      "purchase.thank-you.block.render",
      "customer-account.order-status.block.render",
    ]);
    for (const t of targets) expect(existsSync(path.join(DIR, t.module)), t.module).toBe(true);
    expect(toml).toMatch(/^\s*network_access\s*=\s*true/m);
  });

  // Shopify CLI bundles each target's module with esbuild (ESM, Preact's JSX)
  // and refuses bundles over 64 KB.
  it.each(["ThankYou", "OrderStatus"])("bundles %s.tsx as Shopify CLI does, under 64 KB", async (entry) => {
    const result = await build({
      entryPoints: [path.join(DIR, "src", `${entry}.tsx`)],
      bundle: true,
      write: false,
      format: "esm",
      target: "es2020",
      jsx: "automatic",
      jsxImportSource: "preact",
      minify: true,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.contents.length).toBeLessThan(64 * 1024);
  });
});
