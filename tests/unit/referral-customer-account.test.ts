import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  buildRequest,
  maskFriend,
  pageView,
  readAnswer,
  REFERRALS_PATH,
  TEXT_KEYS,
  type ReadyAnswer,
  type ReferralsAnswer,
  type TextKey,
} from "../../extensions/referral-customer-account/src/referrals-logic";
import { CUSTOMER_PAGE_TEXT_KEYS } from "~/models/referrals/customer-account-referrals.server";
import { maskEmailForAdvocate } from "~/models/referrals/mask-email";

// The "Refer a friend" page of the new customer accounts
// (extensions/referral-customer-account): its logic without Shopify's
// runtime, its texts (the app's, in every account language, and its own
// locale files), its toml and its bundle.

const ROOT = path.resolve(__dirname, "../..");
const DIR = path.join(ROOT, "extensions/referral-customer-account");

type Tree = { [key: string]: string | Tree };
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Tree;
const flat = (tree: Tree, prefix = ""): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === "string" ? [[prefix + k, v]] : Object.entries(flat(v, `${prefix}${k}.`)),
    ),
  );

/** Shopify's i18n.translate over one of the extension's locale files; a missing key fails the test. */
function translator(file = "en.default.json") {
  const keys = flat(readJson(path.join(DIR, "locales", file)));
  return (key: string) => {
    const text = keys[key];
    if (text === undefined) throw new Error(`no key ${key} in ${file}`);
    return text;
  };
}

const EN_TEXTS: Record<TextKey, string> = {
  heading: "Refer a friend",
  title: "Give a discount, get a reward",
  description: "Share your link with friends.",
  intro: "Share your link with friends. When they order, you get a reward.",
  linkLabel: "Your share link",
  codeLabel: "Your friends' code",
  copy: "Copy",
  copied: "Copied",
  submit: "Get my link",
  noLink: "You do not have a share link yet.",
  friends: "Friends who used your link",
  noFriends: "No friend has used your link yet.",
  friend: "Friend",
  date: "Date",
  status: "Status",
  reward: "Reward",
  rewardsEarned: "Rewards earned:",
  storeCredit: "Store credit balance:",
  preparing: "Your code is being prepared…",
  error: "Something went wrong. Please try again.",
};

const ready = (over: Partial<ReadyAnswer> = {}): ReadyAnswer => ({
  status: "ready",
  lang: "en",
  dir: "ltr",
  texts: EN_TEXTS,
  reward: "10% off",
  conditions: "",
  advocate: { shareUrl: "https://shop.example/?invite=abc234defg", friendCode: "SAM-10" },
  canJoin: false,
  friends: [
    { friend: "ju***@ex***.org", date: "May 4, 2026", status: "Rewarded", reward: "$10.00" },
    { friend: "b***@ma***.example", date: "Jun 1, 2026", status: "Pending", reward: "" },
  ],
  rewarded: 1,
  storeCredit: ["$12.50"],
  ...over,
});

describe("buildRequest", () => {
  it("asks the app with the session token and the customer's language, nothing else", () => {
    expect(buildRequest("https://app.example/", "tok.en.jwt", "pt-BR")).toEqual({
      url: `https://app.example${REFERRALS_PATH}?locale=pt-BR`,
      init: { method: "GET", headers: { Authorization: "Bearer tok.en.jwt" } },
    });
    expect(buildRequest("https://app.example", "t", "de", "POST")?.init.method).toBe("POST");
  });

  it.each([
    ["no app URL", "", "t"],
    ["the placeholder is not a URL", "set-me", "t"],
    ["plain http to another host", "http://app.example", "t"],
    ["no session token", "https://app.example", ""],
  ])("asks nothing when %s", (_label, url, token) => {
    expect(buildRequest(url, token, "en")).toBeNull();
  });

  it("leaves out a language that is not a language tag", () => {
    expect(buildRequest("http://localhost:3000", "t", "de&shop=x")?.url).toBe(`http://localhost:3000${REFERRALS_PATH}`);
    expect(buildRequest("http://localhost:3000", "t", null)?.url).toBe(`http://localhost:3000${REFERRALS_PATH}`);
  });
});

describe("readAnswer", () => {
  it.each<[string, number, unknown, ReferralsAnswer]>([
    ["a page", 200, ready(), ready()],
    [
      "a page without a link",
      200,
      { ...ready(), advocate: null, canJoin: true },
      ready({ advocate: null, canJoin: true }),
    ],
    [
      "an empty code",
      200,
      { ...ready(), advocate: { shareUrl: "https://shop.example/?invite=x", friendCode: "" } },
      ready({ advocate: { shareUrl: "https://shop.example/?invite=x", friendCode: null } }),
    ],
    ["no balance", 200, { ...ready(), storeCredit: null }, ready({ storeCredit: null })],
    ["a balance that is not text", 200, { ...ready(), storeCredit: [12.5] }, ready({ storeCredit: null })],
    ["a bad count", 200, { ...ready(), rewarded: -3 }, ready({ rewarded: 0 })],
    ["the program off", 200, { status: "off" }, { status: "off" }],
    ["a refused token", 401, null, { status: "error" }],
    ["a server error", 500, ready(), { status: "error" }],
    ["a text missing", 200, { ...ready(), texts: { ...EN_TEXTS, storeCredit: undefined } }, { status: "error" }],
    [
      "a link that is not a URL",
      200,
      { ...ready(), advocate: { shareUrl: "javascript:alert(1)", friendCode: null } },
      { status: "error" },
    ],
    ["a friend row that is not one", 200, { ...ready(), friends: [{ friend: 1 }] }, { status: "error" }],
    ["not an object", 200, "ready", { status: "error" }],
  ])("reads %s", (_label, status, body, expected) => {
    expect(readAnswer(status, body)).toEqual(expected);
  });

  it("reads the same texts the app sends", () => {
    expect([...TEXT_KEYS]).toEqual([...CUSTOMER_PAGE_TEXT_KEYS]);
  });
});

describe("maskFriend", () => {
  it.each([
    ["ju***@ex***.org", "ju***@ex***.org"],
    ["john@example.com", "j***@e***.com"],
    ["a@b.co", "***@***.co"],
    ["jörg@bücher.de", "j***@b***.de"],
    ["  sam@shop.test ", "s***@s***.test"],
    ["", ""],
  ])("shows %s as %s", (input, shown) => {
    expect(maskFriend(input)).toBe(shown);
  });

  // (The app's mask shows a one-letter local part as it is: "x@y.z" → "x***@y***.z".)
  it("never shows an address whole, masked by the app or not", () => {
    for (const email of ["anna.friend@example.com", "bo@mail.example.org", "xy@z.io"]) {
      for (const shown of [maskFriend(email), maskFriend(maskEmailForAdvocate(email))]) {
        expect(shown).toContain("***");
        expect(shown).not.toContain(email.split("@")[0]);
      }
    }
  });
});

describe("pageView", () => {
  const t = translator();

  it("says it is loading, off, or failed with the extension's own texts", () => {
    expect(pageView(null, t)).toEqual({
      kind: "message",
      heading: "Refer a friend",
      message: "Loading your referrals…",
      tone: "loading",
    });
    expect(pageView({ status: "off" }, t)).toMatchObject({ message: "Referrals are not available right now." });
    expect(pageView({ status: "error" }, t)).toMatchObject({ tone: "critical" });
  });

  it("shows the link, the code, the friends, the rewards and the balance with the app's texts", () => {
    expect(pageView(ready({ conditions: "On orders from $50.00." }), t)).toEqual({
      kind: "page",
      heading: "Refer a friend",
      title: "Give a discount, get a reward",
      offer: "Share your link with friends. 10% off On orders from $50.00.",
      link: {
        label: "Your share link",
        url: "https://shop.example/?invite=abc234defg",
        copy: "Copy",
        copied: "Copied",
        code: "Your friends' code SAM-10",
      },
      join: null,
      friends: {
        heading: "Friends who used your link",
        empty: null,
        rows: [
          { friend: "ju***@ex***.org", line: "May 4, 2026 · Rewarded · $10.00" },
          { friend: "b***@ma***.example", line: "Jun 1, 2026 · Pending" },
        ],
      },
      rewards: "Rewards earned: 1",
      storeCredit: "Store credit balance: $12.50",
    });
  });

  it("shows the empty states: no link (with the button only when the app can make one), no friends, no balance", () => {
    const none = pageView(ready({ advocate: null, canJoin: true, friends: [], rewarded: 0, storeCredit: null }), t);
    expect(none).toMatchObject({
      link: null,
      join: { message: "You do not have a share link yet.", button: "Get my link" },
      friends: { empty: "No friend has used your link yet.", rows: [] },
      rewards: "Rewards earned: 0",
      storeCredit: null,
    });
    expect(pageView(ready({ advocate: null, canJoin: false }), t)).toMatchObject({ join: { button: "" } });
    expect(pageView(ready({ advocate: { shareUrl: "https://s.example/", friendCode: null } }), t)).toMatchObject({
      link: { code: null },
    });
    expect(pageView(ready({ storeCredit: ["€0.00", "$3.00"] }), t)).toMatchObject({
      storeCredit: "Store credit balance: €0.00, $3.00",
    });
  });

  it("masks an address the app sent whole", () => {
    const view = pageView(ready({ friends: [{ friend: "john@example.com", date: "d", status: "s", reward: "" }] }), t);
    expect(view.kind === "page" && view.friends.rows[0]!.friend).toBe("j***@e***.com");
  });
});

describe("the app's texts in every account language", () => {
  // What the endpoint reads (customer-account-referrals.server.ts) from Account.Common:referFriend.
  const KEYS = [
    "widget.buttonText",
    "widget.title",
    "widget.description",
    "widget.linkLabel",
    "widget.codeLabel",
    "widget.copy",
    "widget.copied",
    "widget.submit",
    "widget.preparing",
    "widget.errors.generic",
    "account.intro",
    "account.noLink",
    "account.friends",
    "account.noFriends",
    "account.friend",
    "account.date",
    "account.status.label",
    "account.reward",
    "account.rewardsEarned",
    "account.storeCredit",
  ];
  const LOCALES = path.join(ROOT, "public/locales");
  const languages = readdirSync(LOCALES).filter((l) => existsSync(path.join(LOCALES, l, "Account.Common.json")));
  const english = flat(readJson(path.join(LOCALES, "en/Account.Common.json")));

  it("covers every account language", () => {
    expect(languages.length).toBeGreaterThanOrEqual(93);
  });

  it.each(languages)("%s has every text of the page", (lang) => {
    const texts = flat(readJson(path.join(LOCALES, lang, "Account.Common.json")));
    for (const key of KEYS) expect(texts[`referFriend.${key}`]?.trim(), `${lang} ${key}`).toBeTruthy();
    if (lang !== "en")
      expect(texts["referFriend.account.storeCredit"], `${lang} is English`).not.toBe(
        english["referFriend.account.storeCredit"],
      );
  });
});

describe("the extension's files", () => {
  const SHOPIFY_LOCALES = ["de", "en.default", "es", "fr", "it", "ja", "nl", "pt-BR", "vi", "zh-CN"];

  it("ships the thank-you block's languages under Shopify's locale file names", () => {
    const names = (dir: string) =>
      readdirSync(path.join(ROOT, "extensions", dir, "locales"))
        .map((f) => f.replace(/\.json$/, ""))
        .sort();
    expect(names("referral-customer-account")).toEqual([...SHOPIFY_LOCALES].sort());
    expect(names("referral-customer-account")).toEqual(names("referral-thank-you"));
  });

  it.each(SHOPIFY_LOCALES.filter((l) => l !== "en.default"))("%s has every English key, translated", (lang) => {
    const source = flat(readJson(path.join(DIR, "locales/en.default.json")));
    const other = flat(readJson(path.join(DIR, `locales/${lang}.json`)));
    expect(Object.keys(other).sort()).toEqual(Object.keys(source).sort());
    for (const [key, text] of Object.entries(other)) {
      expect(text.trim(), `${lang} ${key}`).not.toBe("");
      expect(text, `${lang} ${key} is English`).not.toBe(source[key]);
    }
    const t = translator(`${lang}.json`);
    for (const answer of [null, { status: "off" as const }, { status: "error" as const }])
      expect(JSON.stringify(pageView(answer, t))).not.toMatch(/page\.|undefined/);
  });

  it("is a ui_extension on the app's API version, a full page of its own, allowed to call the app", () => {
    const toml = readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8");
    const appToml = readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8");
    const appVersion = /^api_version\s*=\s*"([^"]+)"/m.exec(appToml)![1];
    expect(/^api_version\s*=\s*"([^"]+)"/m.exec(toml)![1]).toBe(appVersion);
    expect(/^\s*type\s*=\s*"([^"]+)"/m.exec(toml)![1]).toBe("ui_extension");
    const targets = [...toml.matchAll(/^\s*module\s*=\s*"([^"]+)"\s*\n\s*target\s*=\s*"([^"]+)"/gm)].map((m) => ({
      module: m[1]!,
      target: m[2]!,
    }));
    // A full-page target cannot share its extension with another target.
    expect(targets.map((x) => x.target)).toEqual(["customer-account.page.render"]);
    for (const x of targets) expect(existsSync(path.join(DIR, x.module)), x.module).toBe(true);
    expect(toml).toMatch(/^\s*network_access\s*=\s*true/m);
  });

  it("is an npm workspace of the app, with the thank-you block's dependencies", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { workspaces: string[] };
    expect(pkg.workspaces).toContain("extensions/referral-customer-account");
    const own = JSON.parse(readFileSync(path.join(DIR, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const thankYou = JSON.parse(
      readFileSync(path.join(ROOT, "extensions/referral-thank-you/package.json"), "utf8"),
    ) as {
      dependencies: Record<string, string>;
    };
    expect(own.dependencies).toEqual(thankYou.dependencies);
  });

  // Shopify CLI bundles each target's module with esbuild (ESM, Preact's JSX)
  // and refuses bundles over 64 KB.
  it("bundles ReferralsPage.tsx as Shopify CLI does, under 64 KB", async () => {
    const result = await build({
      entryPoints: [path.join(DIR, "src/ReferralsPage.tsx")],
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
    const size = result.outputFiles[0]!.contents.length;
    console.log(`referral-customer-account bundle: ${size} bytes`);
    expect(size).toBeLessThan(64 * 1024);
  });
});
