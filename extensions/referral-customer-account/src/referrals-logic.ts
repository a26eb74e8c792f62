// Everything the "Refer a friend" page decides, without Shopify's runtime:
// the requests to the app, how its answer is read, and what the page shows
// in each state. The Preact view (ReferralsPage.tsx) only wires this to
// Shopify's API; tests/unit/referral-customer-account.test.ts runs it under
// the app's vitest.
//
// The texts of a page with data come from the app in the customer's language
// (the storefront widget's texts, in every account language); the page's own
// locales/*.json only hold what it says before or without an answer.

/** The app's endpoint (app/routes/api.customer-account.referrals.tsx). */
export const REFERRALS_PATH = "/api/customer-account/referrals";

export const TEXT_KEYS = [
  "heading",
  "title",
  "description",
  "intro",
  "linkLabel",
  "codeLabel",
  "copy",
  "copied",
  "submit",
  "noLink",
  "friends",
  "noFriends",
  "friend",
  "date",
  "status",
  "reward",
  "rewardsEarned",
  "storeCredit",
  "preparing",
  "error",
] as const;
export type TextKey = (typeof TEXT_KEYS)[number];

export interface FriendRow {
  friend: string;
  date: string;
  status: string;
  reward: string;
}

export interface ReadyAnswer {
  status: "ready";
  lang: string;
  dir: "ltr" | "rtl";
  texts: Record<TextKey, string>;
  reward: string;
  conditions: string;
  advocate: { shareUrl: string; friendCode: string | null } | null;
  canJoin: boolean;
  friends: FriendRow[];
  rewarded: number;
  storeCredit: string[] | null;
}

export type ReferralsAnswer = ReadyAnswer | { status: "off" } | { status: "error" };

/** The app's base URL without a trailing slash; null unless it is https (or http on localhost, for development). */
export function normalizeAppUrl(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || !raw.trim()) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The fetch the page sends: GET reads the customer's referrals, POST makes
 * their link. Null without an app URL or a token. Nothing in it says who the
 * customer is: the session token does, signed by Shopify.
 */
export function buildRequest(
  appUrl: string | null | undefined,
  sessionToken: string,
  locale: string | null | undefined,
  method: "GET" | "POST" = "GET",
): { url: string; init: { method: "GET" | "POST"; headers: Record<string, string> } } | null {
  const base = normalizeAppUrl(appUrl);
  if (!base || !sessionToken) return null;
  const lang = typeof locale === "string" && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale) ? locale : "";
  return {
    url: base + REFERRALS_PATH + (lang ? `?locale=${encodeURIComponent(lang)}` : ""),
    init: { method, headers: { Authorization: `Bearer ${sessionToken}` } },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === "object" && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

function readFriend(v: unknown): FriendRow | null {
  if (!isObject(v)) return null;
  const { friend, date, status, reward } = v;
  if (![friend, date, status, reward].every(isString)) return null;
  return { friend: friend as string, date: date as string, status: status as string, reward: reward as string };
}

/**
 * The app's answer as the page reads it: "off" when the app says so (the
 * program is off, or the shop's plan lacks it); "error" for anything else
 * that is not a well-formed 200 (a refused token, a 5xx, a page from a proxy).
 */
export function readAnswer(status: number, body: unknown): ReferralsAnswer {
  if (status === 200 && isObject(body) && body.status === "off") return { status: "off" };
  if (status !== 200 || !isObject(body) || body.status !== "ready") return { status: "error" };
  const texts = body.texts;
  if (!isObject(texts) || !TEXT_KEYS.every((k) => isString(texts[k]))) return { status: "error" };
  const advocate = body.advocate;
  let link: ReadyAnswer["advocate"] = null;
  if (advocate !== null) {
    if (!isObject(advocate) || !isString(advocate.shareUrl) || !/^https?:\/\//.test(advocate.shareUrl))
      return { status: "error" };
    link = {
      shareUrl: advocate.shareUrl,
      friendCode: isString(advocate.friendCode) && advocate.friendCode ? advocate.friendCode : null,
    };
  }
  const friends = Array.isArray(body.friends) ? body.friends.map(readFriend) : null;
  if (!friends || friends.some((f) => f === null)) return { status: "error" };
  const credit = body.storeCredit;
  return {
    status: "ready",
    lang: isString(body.lang) ? body.lang : "en",
    dir: body.dir === "rtl" ? "rtl" : "ltr",
    texts: Object.fromEntries(TEXT_KEYS.map((k) => [k, texts[k] as string])) as Record<TextKey, string>,
    reward: isString(body.reward) ? body.reward : "",
    conditions: isString(body.conditions) ? body.conditions : "",
    advocate: link,
    canJoin: body.canJoin === true,
    friends: friends as FriendRow[],
    rewarded:
      typeof body.rewarded === "number" && Number.isInteger(body.rewarded) && body.rewarded >= 0 ? body.rewarded : 0,
    storeCredit: Array.isArray(credit) && credit.every(isString) ? credit : null,
  };
}

export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * What the page shows, by state. `loading` and the states without data use
 * the extension's own locales; a page with data uses the app's texts.
 */
export type View =
  | { kind: "message"; heading: string; message: string; tone: "info" | "critical" | "loading" }
  | {
      kind: "page";
      heading: string;
      title: string;
      offer: string;
      link: { label: string; url: string; copy: string; copied: string; code: string | null } | null;
      join: { message: string; button: string } | null;
      friends: { heading: string; empty: string | null; rows: { friend: string; line: string }[] };
      rewards: string;
      storeCredit: string | null;
    };

/** The page of a state: loading (no answer yet), the app's answer, or an error. */
export function pageView(answer: ReferralsAnswer | null, t: Translate): View {
  const heading = t("page.heading");
  if (!answer) return { kind: "message", heading, message: t("page.loading"), tone: "loading" };
  if (answer.status === "off") return { kind: "message", heading, message: t("page.off"), tone: "info" };
  if (answer.status === "error") return { kind: "message", heading, message: t("page.error"), tone: "critical" };
  const x = answer.texts;
  const offer = [x.description, answer.reward, answer.conditions].filter((s) => s.trim()).join(" ");
  return {
    kind: "page",
    heading: x.heading,
    title: x.title,
    offer,
    link: answer.advocate
      ? {
          label: x.linkLabel,
          url: answer.advocate.shareUrl,
          copy: x.copy,
          copied: x.copied,
          code: answer.advocate.friendCode ? `${x.codeLabel} ${answer.advocate.friendCode}` : null,
        }
      : null,
    join: answer.advocate ? null : { message: x.noLink, button: answer.canJoin ? x.submit : "" },
    friends: {
      heading: x.friends,
      empty: answer.friends.length ? null : x.noFriends,
      rows: answer.friends.map((f) => ({
        friend: maskFriend(f.friend),
        line: [f.date, f.status, f.reward].filter((s) => s.trim()).join(" · "),
      })),
    },
    rewards: `${x.rewardsEarned} ${answer.rewarded}`,
    storeCredit: answer.storeCredit?.length ? `${x.storeCredit} ${answer.storeCredit.join(", ")}` : null,
  };
}

/**
 * A friend's e-mail as this page shows it, whatever the app sends: the app
 * masks (app/models/referrals/mask-email.ts, "ju***@ex***.org"), and this
 * keeps any address that arrives whole from being shown whole.
 */
export function maskFriend(value: string): string {
  const text = value.trim();
  if (!text.includes("@") || text.includes("***")) return text;
  const at = text.lastIndexOf("@");
  const keep = (s: string) => `${[...s].slice(0, Math.min(1, Math.max(0, [...s].length - 1))).join("")}***`;
  const domain = text.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  return `${keep(text.slice(0, at))}@${keep(dot > 0 ? domain.slice(0, dot) : domain)}${dot > 0 ? domain.slice(dot) : ""}`;
}
