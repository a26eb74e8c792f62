import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { buildShop, buildUser, TEST_PASSWORD } from "../support/builders";
import { HttpClient } from "../support/http-client";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { pngHeaderOnly } from "../support/png";

// Settings > Promote link and Settings > Branding over real HTTP: bad input is
// a 422 naming the field and changes nothing; staff without the settings area
// get no access; another shop's upload cannot become this shop's logo.
applyTestEnv();
useTestDatabase();
const server = useTestServer();

const PROMOTE = `/admin/settings/promote-link?_data=${encodeURIComponent("routes/$role.settings.promote-link")}`;
const BRANDING = `/admin/settings/branding?_data=${encodeURIComponent("routes/$role.settings.branding")}`;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);

async function adminOf(shopId: string) {
  const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
  await buildUser(shopId, { email });
  const client = new HttpClient(server.url);
  expect((await client.postForm("/login", { email, password: TEST_PASSWORD })).status).toBe(302);
  return client;
}

const promote = {
  referral_param: "partner",
  destination: "page",
  destination_handle: "about-us",
  link_format: "short",
  utm_source: "aff",
  utm_medium: "",
  utm_campaign: "",
  auto_apply_discount: false,
  show_codes: true,
};
const brand = { intent: "save", primary_color: "#112233", background_color: "", font: "mono", logo: "", favicon: "" };

async function upload(client: HttpClient, name: string, bytes: Uint8Array<ArrayBuffer> | Buffer) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("image", new Blob([new Uint8Array(bytes)]), name);
  return client.request(BRANDING, { method: "POST", body: form });
}

describe("settings tabs over HTTP", () => {
  it("saves the promote link settings and refuses bad ones with the field named", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const ok = await admin.postJson(PROMOTE, promote);
    expect(ok.status, await ok.clone().text()).toBe(200);
    const row = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(row.referralParam).toBe("partner");
    expect(JSON.parse(row.settings).promoteLink).toMatchObject({ destination: "page", destination_handle: "about-us" });

    for (const [change, field] of [
      [{ destination_handle: "../x" }, "destination_handle"],
      [{ utm_source: "<script>" }, "utm_source"],
      [{ referral_param: "" }, "referral_param"],
      [{ destination: "elsewhere" }, "destination"],
      [{ extra: 1 }, ""],
    ] as const) {
      const res = await admin.postJson(PROMOTE, { ...promote, referral_param: "other", ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      if (field) expect(Object.keys((await res.json()).error.fields)).toContain(field);
    }
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).referralParam).toBe("partner");
  });

  it("turns on links that apply the affiliate's discount; bad input changes nothing", async () => {
    const shop = await buildShop();
    const admin = await adminOf(shop.id);
    const on = { ...promote, auto_apply_discount: true, show_codes: false };
    const ok = await admin.postJson(PROMOTE, on);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(((await ok.json()) as { saved: unknown }).saved).toMatchObject({
      auto_apply_discount: true,
      show_codes: false,
    });
    const saved = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(saved.autoApplyDiscount).toBe(true);
    expect(JSON.parse(saved.settings).promoteLink).toMatchObject({ show_codes: false });
    expect(JSON.parse(saved.settings).promoteLink).not.toHaveProperty("auto_apply_discount");

    for (const change of [
      { auto_apply_discount: "yes" },
      { auto_apply_discount: null },
      { show_codes: 1 },
      { auto_apply_discount: undefined },
    ]) {
      const res = await admin.postJson(PROMOTE, { ...on, auto_apply_discount: false, show_codes: true, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
    }
    const after = await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } });
    expect(after.autoApplyDiscount).toBe(true);
    expect(after.settings).toBe(saved.settings);

    // Another shop's setting is its own.
    const other = await buildShop();
    expect((await getDb().shop.findUniqueOrThrow({ where: { id: other.id } })).autoApplyDiscount).toBe(false);
  });

  it("stores an uploaded logo and refuses images that are not this shop's", async () => {
    const shop = await buildShop();
    const other = await buildShop();
    const admin = await adminOf(shop.id);
    const otherAdmin = await adminOf(other.id);

    const notImage = await upload(admin, "logo.png", new TextEncoder().encode("<svg/>"));
    expect(notImage.status).toBe(400);
    // Decoded before it is stored: a 50000 × 50000 canvas in a few bytes is refused.
    const bomb = await upload(admin, "logo.png", pngHeaderOnly(50_000, 50_000));
    expect(bomb.status).toBe(400);
    expect(((await bomb.json()) as { error: { message: string } }).error.message).toMatch(/too many pixels/);
    const theirs = (await (await upload(otherAdmin, "theirs.png", PNG)).json()) as { uploaded: string };
    const ours = (await (await upload(admin, "ours.png", PNG)).json()) as { uploaded: string };
    expect(ours.uploaded).toMatch(new RegExp(`^/portal-assets/${shop.id}/`));

    const stolen = await admin.postJson(BRANDING, { ...brand, logo: theirs.uploaded });
    expect(stolen.status).toBe(422);
    expect((await stolen.json()).error.fields).toHaveProperty("logo");
    const badColor = await admin.postJson(BRANDING, { ...brand, primary_color: "red;}body{x" });
    expect(badColor.status).toBe(422);
    expect(JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings)).toEqual({});

    const saved = await admin.postJson(BRANDING, { ...brand, logo: ours.uploaded });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(JSON.parse((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings).branding).toEqual({
      primary_color: "#112233",
      background_color: "",
      font: "mono",
      logo: ours.uploaded,
      favicon: "",
    });
    // The portal page carries the brand.
    const portal = await new HttpClient(server.url).get(`/portal/${shop.domain.replace(".myshopify.com", "")}/`);
    const html = await portal.text();
    expect(html).toContain("--p-color-bg-fill-brand:#112233");
    expect(html).toContain(ours.uploaded);
  });

  it("keeps staff without the settings area out", async () => {
    const shop = await buildShop();
    const staff = await buildUser(shop.id, { email: "staff@example.com", role: "staff", permissions: ["sales"] });
    const client = new HttpClient(server.url);
    await client.postForm("/staff/login", { email: staff.email, password: TEST_PASSWORD });
    for (const path of [PROMOTE.replace("/admin/", "/staff/"), BRANDING.replace("/admin/", "/staff/")]) {
      const res = await client.postJson(path, promote);
      expect(res.status, path).toBe(403);
    }
  });
});
