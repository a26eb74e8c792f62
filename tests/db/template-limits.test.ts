import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildAffiliate, buildCampaign, buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The Notifications editor's Liquid over real HTTP (issue 26, item 4): a
// looping template is stopped at the time limit with a clear 422, other
// requests (a click) are answered meanwhile, and the editor's renders are
// limited per shop.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const EDITOR = "routes/$role.mails.$key";
const LOOP = "{% for i in (1..10000) %}{% for j in (1..10000) %}{% assign x = j %}{% endfor %}{% endfor %}";

async function adminOf(shopId: string) {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { role: "admin", email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

const editorAction = (admin: HttpClient, form: Record<string, string>) =>
  admin.postForm(`/admin/mails/affiliate.signup?_data=${encodeURIComponent(EDITOR)}`, form);

describe("templates under limits", () => {
  it("stops a looping preview at the limit with a 422, while a click on another shop's link is answered", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const other = await buildShop();
    const campaign = await buildCampaign(other.id);
    const affiliate = await buildAffiliate(other.id, campaign.id, { status: "approved" });
    const clickPath = `/r/${other.domain.replace(".myshopify.com", "")}/${affiliate.referralCode}`;
    expect((await fetch(server.url(clickPath), { redirect: "manual" })).status).toBe(302);
    // The editor as it opens: its first preview starts the template thread.
    expect((await editorAction(admin, { intent: "preview", subject: "Hi", body: "Hello" })).status).toBe(200);

    const started = performance.now();
    const previews = Array.from({ length: 6 }, () =>
      editorAction(admin, { intent: "preview", subject: "Hi", body: LOOP }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { error: { code: string; fields: Record<string, string> } },
        ms: performance.now() - started,
      })),
    );
    // Clicks while the previews run: each answered at once.
    const clickTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const click = await fetch(server.url(clickPath), { redirect: "manual" });
      clickTimes.push(performance.now() - t);
      expect(click.status).toBe(302);
      await new Promise((r) => setTimeout(r, 20));
    }
    const answers = await Promise.all(previews);
    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe("validation_failed");
      expect(answer.body.error.fields.body).toBe(
        "The template took too long to render (over 150 ms). Look for a loop that never ends.",
      );
    }
    // Six loops of 150 ms each, not 6 × 2 s on the request thread (which
    // held every click behind them before). Bounds are loose: the machine
    // the tests run on may be shared.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(4000);
    expect(Math.max(...clickTimes), `clicks took ${clickTimes.map(Math.round).join(", ")} ms`).toBeLessThan(1000);
    expect(await getDb().click.count({ where: { shopId: other.id } })).toBe(6);

    // Saving it is refused the same way, and nothing is stored.
    const save = await editorAction(admin, { intent: "save", subject: "Hi", body: LOOP, enabled: "on" });
    expect(save.status).toBe(422);
    expect(await getDb().notificationTemplate.count({ where: { shopId: shop.id } })).toBe(0);
  });

  it("limits the editor's renders per shop (429 with Retry-After), not other shops'", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++)
      statuses.push((await editorAction(admin, { intent: "preview", subject: "Hi", body: `Body ${i}` })).status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    const refused = await editorAction(admin, { intent: "preview", subject: "Hi", body: "more" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "Too many previews and test e-mails. Wait a minute and try again.",
    );
    const otherAdmin = await adminOf((await buildShop()).id);
    expect((await editorAction(otherAdmin, { intent: "preview", subject: "Hi", body: "fine" })).status).toBe(200);
  });
});
