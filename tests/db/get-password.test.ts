import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { issuePasswordToken } from "~/models/auth/password-token.server";
import { buildShop, buildUser } from "../support/builders";
import { HttpClient, location } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

applyTestEnv();
useTestDatabase();
const server = useTestServer();

async function invitedStaff() {
  const shop = await buildShop();
  const user = await buildUser(shop.id, { role: "staff", password: null, status: "invited", permissions: ["sales"] });
  const token = await issuePasswordToken(user.id, "invite");
  return { user, token };
}

describe("/staff/get-password", () => {
  it("lets an invited staff member set a password, logs them in, and spends the link", async () => {
    const { user, token } = await invitedStaff();
    const client = new HttpClient(server.url);
    const page = await client.get(`/staff/get-password?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(user.email);
    const res = await client.postForm("/staff/get-password", {
      token,
      password: "a brand new secret",
      confirm: "a brand new secret",
    });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/staff/dashboard");
    expect((await client.get("/staff/sales")).status).toBe(200);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: user.id } })).status).toBe("active");
    // The same link cannot be used twice.
    const again = await new HttpClient(server.url).postForm("/staff/get-password", {
      token,
      password: "another secret 123",
      confirm: "another secret 123",
    });
    expect(again.status).toBe(400);
    expect(await (await new HttpClient(server.url).get(`/staff/get-password?token=${token}`)).text()).toContain(
      "This link is invalid or has expired.",
    );
    // And the new password works at the staff login.
    const login = await new HttpClient(server.url).postForm("/staff/login", {
      email: user.email,
      password: "a brand new secret",
    });
    expect(location(login)).toBe("/staff/dashboard");
  });

  it("refuses an expired link", async () => {
    const shop = await buildShop();
    const user = await buildUser(shop.id, { role: "staff", password: null, status: "invited" });
    const token = await issuePasswordToken(user.id, "invite", -1000);
    const client = new HttpClient(server.url);
    expect(await (await client.get(`/staff/get-password?token=${token}`)).text()).toContain(
      "This link is invalid or has expired.",
    );
    const res = await client.postForm("/staff/get-password", {
      token,
      password: "a brand new secret",
      confirm: "a brand new secret",
    });
    expect(res.status).toBe(400);
    expect((await getDb().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBeNull();
  });

  it("checks the new password before touching anything", async () => {
    const { user, token } = await invitedStaff();
    const client = new HttpClient(server.url);
    const short = await client.postForm("/staff/get-password", { token, password: "short", confirm: "short" });
    expect(short.status).toBe(422);
    expect(await short.text()).toContain("Use at least 10 characters");
    const mismatch = await client.postForm("/staff/get-password", {
      token,
      password: "long enough one",
      confirm: "long enough two",
    });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain("The passwords do not match");
    const row = await getDb().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toBeNull();
    expect(await getDb().passwordToken.count({ where: { usedAt: { not: null } } })).toBe(0);
  });

  it("shows a plain message for a missing or made-up token", async () => {
    const client = new HttpClient(server.url);
    for (const path of ["/staff/get-password", "/staff/get-password?token=made-up-token-that-is-long-enough"]) {
      const res = await client.get(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("This link is invalid or has expired.");
    }
  });
});
