import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_ADVOCATES, demoInviteToken } from "~/models/referrals/demo-advocates";
import { emptyState, seedShop } from "~/simulator/store-state";

// Issue 29: the README's refer-a-friend try-out commands name what the demo
// has: a friend code that is a discount code of the simulated store (the app
// would refuse a code the store does not know) and a share token of a demo
// advocate (an unknown token records nothing). Checked against the demo on
// a running app when written; this keeps them true.
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const referralCommands = README.split("\n").filter((l) => l.startsWith("npm run simulate -- referral"));
const option = (line: string, name: string) => line.match(new RegExp(`--${name} (\\S+)`))?.[1];

describe("README try-out: refer-a-friend", () => {
  it("has both commands", () => {
    expect(referralCommands.map((l) => (option(l, "friend-code") ? "code" : "invite"))).toEqual(["code", "invite"]);
  });

  it("applies a friend code that is a demo advocate's and a discount code of the demo store", () => {
    const code = option(referralCommands[0]!, "friend-code")!;
    expect(DEMO_ADVOCATES.map((a) => a.code)).toContain(code);
    const store = seedShop(emptyState(), "demo-store.myshopify.com", { demo: true, scopes: [] });
    expect(store.discounts.flatMap((d) => d.codes.map((c) => c.code))).toContain(code);
  });

  it("arrives through a demo advocate's share token", () => {
    const token = option(referralCommands[1]!, "invite")!;
    expect(DEMO_ADVOCATES.map((_, i) => demoInviteToken(i))).toContain(token);
  });

  it("says that simulate needs the app's PORT and how a demo affiliate logs in", () => {
    expect(README).toMatch(/same `PORT` and `DATA_DIR` as `npm start`/);
    expect(README).toContain("/portal/demo-store/forgot");
  });
});
