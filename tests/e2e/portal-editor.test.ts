import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { expectPage, logIn, waitForHydration } from "../support/admin-browser";
import { buildCampaign, buildUser, TEST_PASSWORD } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { solidPng } from "../support/png";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// The portal editor in a real Chromium: the merchant edits the built-in
// landing page (a new heading, an image dropped in, a section hidden, one
// added and moved above), previews it at desktop and phone width, publishes,
// and the public page shows the change with its Join button. Then a required
// field of their own on the sign-up form: refused without it, kept with it,
// shown on the affiliate's admin page and in the CSV. Needs the built app.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-editor-e2e-"));
applyTestEnv({ DATA_DIR: dataDir });
useTestDatabase();
const server = useTestServer();
const chromiumPath = findChromium();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function merchant(browser: ReturnType<typeof useBrowser>, domain: string) {
  const db = getDb();
  const shop = await db.shop.create({
    data: { domain, name: "Edit Gear", url: `https://${domain}`, adminEmail: "o@edit.example", pricingPlan: "growth" },
  });
  const campaign = await buildCampaign(shop.id, { name: "Standard" });
  await db.campaign.update({ where: { id: campaign.id }, data: { isDefault: true } });
  const admin = await buildUser(shop.id, { email: `admin@${domain}` });
  const session = await browser.newSession(server.url(""));
  await logIn(session.page, "admin", admin.email, TEST_PASSWORD);
  await expectPage(session.page, "/admin/dashboard", "Dashboard");
  return { shop, ...session };
}

async function openEditor(page: Page, kind: string) {
  await page.goto(`/admin/portals/${kind}`);
  await waitForHydration(page);
}

const sections = (page: Page) => page.getByTestId("portal-section");
const preview = (page: Page) => page.getByTestId("portal-preview");

describe.skipIf(skipWithoutChromium(chromiumPath))("portal editor in Chromium", () => {
  const browser = useBrowser(chromiumPath);

  it("edits the built-in landing page (heading, image, hide, add and reorder), publishes it, and Join stays", async () => {
    const { page, errors } = await merchant(browser, "edit-gear.myshopify.com");
    await openEditor(page, "landing");
    // It starts from what affiliates see: the built-in hero (with Join) and benefit boxes.
    expect(await sections(page).count()).toBe(2);
    await expect(sections(page).nth(0).textContent()).resolves.toContain("Join button");
    await preview(page).getByText("Generous commissions").waitFor();
    await preview(page).getByRole("link", { name: "Join now" }).waitFor();

    // The hero: a new heading, an image dropped in (uploaded and checked by the server).
    await sections(page).nth(0).getByRole("button", { name: "Edit section" }).click();
    await page.getByLabel("Heading").fill("Ride with Edit Gear");
    const image = path.join(dataDir, "bikes.png");
    writeFileSync(image, solidPng(64, 40, [30, 120, 200]));
    await page.getByTestId("image-image").locator('input[type="file"]').setInputFiles(image);
    await page.locator('img[alt="Image"]').waitFor();
    await preview(page).getByRole("heading", { name: "Ride with Edit Gear" }).waitFor();
    // A file that is not an image is refused with a reason, before it is sent.
    const text = path.join(dataDir, "notes.txt");
    writeFileSync(text, "not an image");
    await page.getByTestId("image-image").locator('input[type="file"]').setInputFiles(text);
    await page.getByText("notes.txt is not a PNG, JPEG, GIF or WebP image.").waitFor();

    // The benefit boxes hidden; a text section added and moved above the hero.
    await sections(page).nth(1).getByRole("button", { name: "Hide section" }).click();
    await page.getByRole("button", { name: "Add Text" }).click();
    await page.getByLabel("Heading").fill("Spring rides are here");
    await sections(page).nth(2).getByRole("button", { name: "Move up" }).click();
    await sections(page).nth(1).getByRole("button", { name: "Move up" }).click();
    await expect(sections(page).nth(0).textContent()).resolves.toContain("Spring rides are here");
    // The hero cannot be hidden or removed.
    expect(await sections(page).nth(1).getByRole("button", { name: "Hide section" }).isDisabled()).toBe(true);
    expect(await sections(page).nth(1).getByRole("button", { name: "Remove" }).isDisabled()).toBe(true);
    expect(await preview(page).getByText("Generous commissions").count()).toBe(0);
    await page.screenshot({ path: screenshotPath("portal-editor-landing-desktop"), fullPage: true });
    await page.getByRole("button", { name: "Mobile" }).click();
    await preview(page).locator('[data-preview-width="390"]').waitFor();
    await page.screenshot({ path: screenshotPath("portal-editor-landing-mobile-preview"), fullPage: true });

    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByTestId("portal-saved").waitFor();
    await page
      .getByText("Published · version 1")
      .waitFor({ state: "attached" })
      .catch(() => undefined);

    const live = await browser.newSession(server.url(""));
    await live.page.goto("/portal/edit-gear/");
    const heading = live.page.getByRole("heading", { name: "Ride with Edit Gear" });
    await heading.waitFor();
    const join = live.page.locator("main").getByRole("link", { name: "Join now" });
    expect(await join.getAttribute("href")).toBe("/portal/edit-gear/signup");
    expect(await live.page.getByText("Generous commissions").count()).toBe(0);
    // The order the merchant chose: the new section above the hero.
    const order = await live.page
      .locator("main [data-section]")
      .evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    expect(order[0]).toContain("Spring rides are here");
    expect(order[1]).toContain("Ride with Edit Gear");
    const src = await live.page.locator("main img.portal-hero-image").getAttribute("src");
    expect(src).toMatch(/\/portal-assets\/.+-bikes\.png$/);
    expect((await live.page.request.get(src!)).status()).toBe(200);
    await live.page.screenshot({ path: screenshotPath("portal-landing-published-desktop"), fullPage: true });
    await live.page.setViewportSize({ width: 390, height: 844 });
    await live.page.screenshot({ path: screenshotPath("portal-landing-published-390"), fullPage: true });
    expect(await live.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors.unexpected()).toEqual([]);
  });

  it("adds a required field to the sign-up form: refused without it, kept with it, shown to the merchant and in the CSV", async () => {
    const { page, errors } = await merchant(browser, "form-gear.myshopify.com");
    await openEditor(page, "signup");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByLabel("Label", { exact: true }).fill("Where do you post?");
    await page.getByLabel("Type", { exact: true }).selectOption("select");
    await page.getByLabel("Choices").fill("Blog\nYouTube\nInstagram");
    await page.getByLabel("Required", { exact: true }).check({ force: true });
    await page.getByLabel("Program terms address").fill("https://form-gear.example/terms");
    await preview(page).getByLabel("Where do you post?").waitFor();
    await page.screenshot({ path: screenshotPath("portal-editor-signup-fields"), fullPage: true });
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByTestId("portal-saved").waitFor();

    const affiliate = await browser.newSession(server.url(""));
    const p = affiliate.page;
    await p.goto("/portal/form-gear/signup");
    await p.locator('[name="firstName"]').fill("Mira");
    await p.locator('[name="lastName"]').fill("Lopez");
    await p.locator('[name="email"]').fill("mira@aff.example");
    await p.locator('[name="password"]').fill("a long enough password");
    // (The label holds the terms link: tick the box itself.)
    await p.locator("#field-terms").check({ force: true });
    await p.getByRole("button", { name: "Sign up" }).click();
    await p.getByTestId("signup-error").waitFor();
    await p.getByText("Choose one of the options").waitFor();
    expect(await p.getByText("Accept the program terms to sign up").count()).toBe(0);
    await p.screenshot({ path: screenshotPath("portal-signup-field-refused"), fullPage: true });
    expect(await getDb().affiliate.count({ where: { email: "mira@aff.example" } })).toBe(0);

    await p.locator('[name="password"]').fill("a long enough password");
    await p.locator('[name="q_' + (await fieldId()) + '"]').selectOption("YouTube");
    await p.locator("#field-terms").check({ force: true });
    await p.setViewportSize({ width: 390, height: 844 });
    await p.screenshot({ path: screenshotPath("portal-signup-field-390"), fullPage: true });
    await p.getByRole("button", { name: "Sign up" }).click();
    await p.getByTestId("signup-done").waitFor();
    const row = await getDb().affiliate.findFirstOrThrow({ where: { email: "mira@aff.example" } });
    expect(Object.values(JSON.parse(row.signupAnswers).answers)).toEqual(["YouTube"]);

    await page.goto(`/admin/affiliates/${row.id}`);
    await page.getByTestId("signup-answers").getByText("YouTube").waitFor();
    expect(await page.getByTestId("signup-answers").textContent()).toContain("Where do you post?");
    await page.screenshot({ path: screenshotPath("admin-affiliate-signup-answers"), fullPage: true });
    const csv = await (await page.request.get("/admin/affiliates/export")).text();
    const [header, line] = csv.trim().split(/\r?\n/);
    expect(header!.split(",").at(-1)).toBe("signup: Where do you post?");
    expect(line!.split(",").at(-1)).toBe("YouTube");
    expect(errors.unexpected()).toEqual([]);

    async function fieldId() {
      const published = await getDb().portalPage.findFirstOrThrow({
        where: { kind: "signup", published: { not: null } },
      });
      return (JSON.parse(published.published!) as { form: { questions: { id: string }[] } }).form.questions[0]!.id;
    }
  });
});
