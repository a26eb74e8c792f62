import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { menuFor } from "~/lib/menu";
import { buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { useNoRenderUnderWriteLock } from "../support/render-guard";

// Settings > Staff over real HTTP: invites (link to /staff/get-password),
// permissions per area enforced on pages and actions, disable / enable,
// new links, removal, tenant scoping; staff can never manage staff.
applyTestEnv();
useTestDatabase();
useNoRenderUnderWriteLock();
const server = useTestServer();

const STAFF = "routes/$role.settings.staff";
const SHELL = "routes/$role";
const NEW_PASSWORD = "a new staff password";

async function adminOf(shopId: string) {
  const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

const staffAction = (client: HttpClient, form: Record<string, string>, role = "admin") =>
  client.postForm(`/${role}/settings/staff?_data=${encodeURIComponent(STAFF)}`, form);

async function invite(admin: HttpClient, email: string, permissions: string) {
  const res = await staffAction(admin, { intent: "invite", email, name: "Sam Staff", permissions });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; inviteUrl: string };
}

/** Follows an invite link like the staff member would: set a password, get logged in. */
async function acceptInvite(inviteUrl: string) {
  const token = new URL(inviteUrl).searchParams.get("token")!;
  const client = new HttpClient(server.url);
  const page = await client.get(`/staff/get-password?token=${encodeURIComponent(token)}`);
  expect(page.status).toBe(200);
  const res = await client.postForm(`/staff/get-password?token=${encodeURIComponent(token)}`, {
    token,
    password: NEW_PASSWORD,
    confirm: NEW_PASSWORD,
  });
  return { client, res };
}

describe("inviting staff", () => {
  it("explains bad input field by field and creates nothing", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const res = await staffAction(admin, { intent: "invite", email: "nope", name: " ", permissions: "sales,root" });
    expect(res.status).toBe(422);
    expect((await res.json()).error.fields).toEqual({
      email: "Enter a valid e-mail address",
      name: "Enter a name",
      permissions: "Not a permission area",
    });
    expect(await getDb().user.count({ where: { shopId: shop.id, role: "staff" } })).toBe(0);
    expect((await staffAction(admin, { intent: "promote" })).status).toBe(422);
  });

  it("invites with permissions; the link sets a password and logs in; staff see and use only their areas", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const { id, inviteUrl } = await invite(admin, "Sam@Example.com", "campaigns,affiliates");
    expect(inviteUrl).toMatch(/\/staff\/get-password\?token=[A-Za-z0-9_-]{40,}$/);
    const user = await getDb().user.findUniqueOrThrow({ where: { id } });
    expect(user).toMatchObject({ email: "sam@example.com", role: "staff", status: "invited", passwordHash: null });
    expect(JSON.parse(user.permissions)).toEqual(["campaigns", "affiliates"]);
    // Only a hash of the token is stored.
    const token = new URL(inviteUrl).searchParams.get("token")!;
    expect(JSON.stringify(await getDb().passwordToken.findMany())).not.toContain(token);

    const list = await (await admin.get(`/admin/settings/staff?_data=${encodeURIComponent(STAFF)}`)).json();
    expect(list.staff).toEqual([
      expect.objectContaining({
        id,
        email: "sam@example.com",
        status: "invited",
        permissions: ["campaigns", "affiliates"],
      }),
    ]);

    const { client: staff, res } = await acceptInvite(inviteUrl);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/staff/dashboard");
    const shell = await (await staff.get(`/staff/dashboard?_data=${encodeURIComponent(SHELL)}`)).json();
    expect(menuFor(shell.user.role, shell.user.permissions).map((item) => item.path)).toEqual([
      "campaigns",
      "affiliates",
      "contact-us",
    ]);
    expect((await staff.get("/staff/affiliates")).status).toBe(200);
    const sales = await staff.get("/staff/sales");
    expect(sales.status).toBe(403);
    expect(await sales.text()).toContain("You don&#x27;t have permission to view this page");
    expect((await staff.postForm("/staff/sales?index", { intent: "approve" })).status).toBe(403);
    // The link works once.
    expect((await acceptInvite(inviteUrl)).res.status).toBe(400);
    // And the new password logs in at /staff/login.
    const again = new HttpClient(server.url);
    expect(location(await again.postForm("/staff/login", { email: "sam@example.com", password: NEW_PASSWORD }))).toBe(
      "/staff/dashboard",
    );
  });

  it("refuses an e-mail already on the team, or the admin's own", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    await invite(admin, "sam@example.com", "sales");
    const dup = await staffAction(admin, {
      intent: "invite",
      email: "SAM@example.com",
      name: "Again",
      permissions: "",
    });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error.fields.email).toBe("A staff member with this e-mail exists already.");
    const ownerEmail = (await getDb().user.findFirstOrThrow({ where: { shopId: shop.id, role: "admin" } })).email;
    const own = await staffAction(admin, { intent: "invite", email: ownerEmail, name: "Me", permissions: "" });
    expect(own.status).toBe(409);
  });
});

describe("managing staff", () => {
  it("edits permissions (applied at once), disables (sessions end), enables, renews links and removes", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const { id, inviteUrl } = await invite(admin, "sam@example.com", "sales");
    const { client: staff } = await acceptInvite(inviteUrl);
    expect((await staff.get("/staff/sales")).status).toBe(200);

    expect((await staffAction(admin, { intent: "update", id, name: "Sam S.", permissions: "affiliates" })).status).toBe(
      200,
    );
    expect((await staff.get("/staff/sales")).status).toBe(403);
    expect((await staff.get("/staff/affiliates")).status).toBe(200);

    expect((await staffAction(admin, { intent: "disable", id })).status).toBe(200);
    expect(location(await staff.get("/staff/affiliates"))).toMatch(/^\/staff\/login/);
    const login = await new HttpClient(server.url).postForm("/staff/login", {
      email: "sam@example.com",
      password: NEW_PASSWORD,
    });
    expect(login.status).toBe(401);
    expect((await staffAction(admin, { intent: "renew", id })).status).toBe(409);

    expect(await (await staffAction(admin, { intent: "enable", id })).json()).toMatchObject({ status: "active" });
    const first = await (await staffAction(admin, { intent: "renew", id })).json();
    const second = await (await staffAction(admin, { intent: "renew", id })).json();
    expect((await acceptInvite(first.inviteUrl)).res.status).toBe(400);
    expect((await acceptInvite(second.inviteUrl)).res.status).toBe(302);

    expect((await staffAction(admin, { intent: "remove", id })).status).toBe(200);
    expect(await getDb().user.count({ where: { id } })).toBe(0);
  });

  it("answers 404 for another shop's staff and changes nothing", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const other = await buildShop();
    const foreign = await buildUser(other.id, { role: "staff", email: "theirs@example.com", permissions: ["sales"] });
    const forms: Record<string, string>[] = [
      { intent: "update", id: foreign.id, name: "Hijacked", permissions: "settings" },
      { intent: "disable", id: foreign.id },
      { intent: "renew", id: foreign.id },
      { intent: "remove", id: foreign.id },
    ];
    for (const form of forms) {
      const res = await staffAction(admin, form);
      expect(res.status, form.intent).toBe(404);
      expect(await res.text()).not.toContain("theirs@example.com");
    }
    const row = await getDb().user.findUniqueOrThrow({ where: { id: foreign.id } });
    expect(row).toMatchObject({ name: "Test Staff", status: "active", permissions: JSON.stringify(["sales"]) });
    expect(await getDb().passwordToken.count({ where: { userId: foreign.id } })).toBe(0);
    const list = await (await admin.get(`/admin/settings/staff?_data=${encodeURIComponent(STAFF)}`)).json();
    expect(list.staff).toEqual([]);
  });

  it("never lets staff manage staff, even with the settings permission", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, {
      role: "staff",
      email: "lead@example.com",
      permissions: ["settings", "affiliates", "sales"],
    });
    const victim = await buildUser(shop.id, { role: "staff", email: "victim@example.com", permissions: ["sales"] });
    const staff = new HttpClient(server.url);
    expect((await staff.postForm("/staff/login", { email: "lead@example.com", password: TEST_PASSWORD })).status).toBe(
      302,
    );
    expect((await staff.get("/staff/settings")).status).toBe(200);
    const settings = await staff.get("/staff/settings");
    expect(await settings.text()).not.toContain("/staff/settings/staff");
    for (const res of [
      await staff.get("/staff/settings/staff"),
      await staff.get(`/staff/settings/staff?_data=${encodeURIComponent(STAFF)}`),
      await staffAction(
        staff,
        { intent: "invite", email: "friend@example.com", name: "Friend", permissions: "payouts" },
        "staff",
      ),
      await staffAction(
        staff,
        { intent: "update", id: victim.id, name: "X", permissions: "payouts,settings" },
        "staff",
      ),
      await staffAction(staff, { intent: "disable", id: victim.id }, "staff"),
      await staff.get("/admin/settings/staff"),
    ]) {
      expect(res.status, res.url).toBe(403);
      expect(await res.text()).not.toContain("victim@example.com");
    }
    expect(await getDb().user.count({ where: { shopId: shop.id } })).toBe(2);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: victim.id } })).permissions).toBe(
      JSON.stringify(["sales"]),
    );
  });
});
