import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import {
  INVITE_DEVICE_ATTRIBUTE,
  INVITE_PARAM,
  INVITE_TOKEN_ATTRIBUTE,
  isShareToken,
} from "~/models/referrals/share-link";

// The refer-a-friend theme asset is plain JavaScript served as is; its pure
// functions run here in node:vm (the page part waits for ever: the sandbox's
// fetch never answers) and are checked against the app's own rules.
const ASSET = readFileSync(
  path.resolve(__dirname, "../../extensions/affiliate-tracking/assets/refer-a-friend.js"),
  "utf8",
);

function load() {
  const sandbox: Record<string, unknown> = {
    document: { currentScript: { dataset: {} }, documentElement: { getAttribute: () => "en" } },
    fetch: () => new Promise(() => {}),
    URLSearchParams,
    Uint8Array,
    Promise,
    Shopify: { routes: { root: "/" } },
  };
  sandbox.window = sandbox;
  vm.runInContext(ASSET, vm.createContext(sandbox), { filename: "refer-a-friend.js" });
  return sandbox.ReferAFriend as Record<string, (...args: any[]) => any>;
}

describe("refer-a-friend.js", () => {
  const api = load();

  it.each([
    ["?invite=ab3kd9x2mq", "ab3kd9x2mq"],
    ["?invite=AB3KD9X2MQ&utm_source=mail", "ab3kd9x2mq"],
    ["?x=1&invite=%20ab3kd9x2mq%20", "ab3kd9x2mq"],
    ["?invite=short", null],
    ["?invite=<script>", null],
    ["?ref=ab3kd9x2mq", null],
    ["", null],
  ])("reads the invitation of %j as %j, as the app's isShareToken would", (search, token) => {
    expect(api.readInvite!(search)).toBe(token);
    if (token) expect(isShareToken(token)).toBe(true);
  });

  it("uses the app's parameter and cart attribute names", () => {
    expect(ASSET).toContain(`var INVITE_PARAM = "${INVITE_PARAM}"`);
    expect(api.cartAttributes!("ab3kd9x2mq", "dev_0123456789abcdef")).toEqual({
      [INVITE_TOKEN_ATTRIBUTE]: "ab3kd9x2mq",
      [INVITE_DEVICE_ATTRIBUTE]: "dev_0123456789abcdef",
    });
    expect(api.cartAttributes!("ab3kd9x2mq", null)).toEqual({
      [INVITE_TOKEN_ATTRIBUTE]: "ab3kd9x2mq",
      [INVITE_DEVICE_ATTRIBUTE]: "",
    });
  });

  it("talks only to the app proxy, under the shop's locale root", () => {
    expect(api.proxyUrl!("/", "invite", { token: "ab3kd9x2mq", device: null, visit: "1" })).toBe(
      "/apps/affiliate/referrals/invite?token=ab3kd9x2mq&visit=1",
    );
    expect(api.proxyUrl!("/fr", "widget", { locale: "fr-CA" })).toBe(
      "/fr/apps/affiliate/referrals/widget?locale=fr-CA",
    );
  });

  it("applies the code and comes back to the page without the invitation", () => {
    const back = api.returnPath!("/products/boots", "?invite=ab3kd9x2mq&variant=7");
    expect(back).toBe("/products/boots?variant=7");
    expect(api.discountUrl!("/", "FRIEND-AB CD", back)).toBe(
      "/discount/FRIEND-AB%20CD?redirect=%2Fproducts%2Fboots%3Fvariant%3D7",
    );
    expect(api.returnPath!("/", "?invite=ab3kd9x2mq")).toBe("/");
  });

  it("makes device ids the app accepts", () => {
    let n = 0;
    const id = api.newDeviceId!((a: Uint8Array) => a.map(() => n++ * 7));
    expect(id).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(api.isDeviceId!(id)).toBe(true);
    expect(api.isDeviceId!("short")).toBe(false);
  });

  it("follows the Customer Privacy API's marketing answer, and allows when there is none", () => {
    expect(api.marketingAllowed!(undefined)).toBe(true);
    expect(api.marketingAllowed!({ marketingAllowed: () => false })).toBe(false);
    expect(api.marketingAllowed!({ marketingAllowed: () => true })).toBe(true);
  });
});
