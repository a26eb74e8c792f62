import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { readReferralProgram } from "~/models/referrals/program-settings";
import { expectPage, logIn, menuLink, waitForHydration } from "../support/admin-browser";
import { buildShop, buildUser } from "../support/builders";
import { findChromium, screenshotPath, skipWithoutChromium, useBrowser } from "../support/browser";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";

// Referrals (the refer-a-friend program) in a real Chromium: reached from the
// navigation, the live preview follows the unsaved values, nonsense is
// refused on the field, and a saved program survives a reload (screenshots
// before and after).

applyTestEnv();

const chromiumPath = findChromium();
const EMAIL = "owner@example.com";

describe.skipIf(skipWithoutChromium(chromiumPath))("Referrals program settings in Chromium", () => {
  const browser = useBrowser(chromiumPath);
  useTestDatabase();
  const server = useTestServer();

  it("edits the program with a live preview, saves, and keeps the values after a reload", async () => {
    const shop = await buildShop();
    await buildUser(shop.id, { email: EMAIL });
    const { page, errors } = await browser.newSession(server.url(""));
    await logIn(page, "admin", EMAIL);
    await page.waitForURL((url) => url.pathname === "/admin/dashboard");
    await waitForHydration(page);
    await menuLink(page, "Referrals").click();
    await expectPage(page, "/admin/referrals", "Referrals");
    await waitForHydration(page);
    expect(await page.locator('[data-app-type="referral"]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath("referral-program-before"), fullPage: true });

    // Empty texts: the shopper's translated defaults.
    const previewButton = page.getByTestId("referral-preview-button");
    expect(await previewButton.innerText()).toBe("Refer a friend");
    expect(await page.getByTestId("referral-preview-widget").getAttribute("data-position")).toBe("bottom-right");

    // The preview follows what is typed, before anything is saved.
    await page.getByLabel("Button text", { exact: true }).fill("Share & save 15%");
    await page.getByLabel("Panel title", { exact: true }).fill("Friends shop for less");
    await page.getByLabel("Button colour", { exact: true }).fill("#2e6b4f");
    await page.getByLabel("Position", { exact: true }).selectOption("bottom-left");
    await page.getByLabel("Friend popup title").fill("Anna sent you 15% off");
    await expect.poll(() => previewButton.innerText()).toBe("Share & save 15%");
    expect(await page.getByTestId("referral-preview-title").innerText()).toBe("Friends shop for less");
    expect(await page.getByTestId("referral-preview-friend").innerText()).toContain("Anna sent you 15% off");
    expect(await page.getByTestId("referral-preview-widget").getAttribute("data-position")).toBe("bottom-left");
    expect(await previewButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(46, 107, 79)");
    const box = await previewButton.boundingBox();
    const frame = await page.getByTestId("referral-preview-widget").boundingBox();
    expect(box!.x - frame!.x).toBeLessThan(frame!.width / 2); // moved to the left corner

    // Nonsense is refused on the field, and nothing is saved.
    const save = page.getByRole("button", { name: "Save" }).first();
    await page.getByLabel("Percentage", { exact: true }).first().fill("abc");
    await page.getByLabel("Hold period (days)").fill("400");
    await save.click();
    await page.getByText("Enter a number such as 12.5").waitFor();
    await page.getByText("Use at most 365").waitFor();
    expect(
      readReferralProgram((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings).enabled,
    ).toBe(false);

    await page.getByLabel("Percentage", { exact: true }).first().fill("15");
    await page.getByLabel("Hold period (days)").fill("21");
    await page.getByLabel("Refer-a-friend program is on").check();
    await page.getByText("Cash commission", { exact: true }).click();
    await page.getByLabel("Amount", { exact: true }).fill("12.50");
    await save.click();
    await page.getByText("Save successful").waitFor();
    await page.screenshot({ path: screenshotPath("referral-program-saved"), fullPage: true });

    const stored = readReferralProgram((await getDb().shop.findUniqueOrThrow({ where: { id: shop.id } })).settings);
    expect(stored).toMatchObject({
      enabled: true,
      friendReward: { type: "percentage", value: 1500 },
      advocateReward: { kind: "cash", value: 1250 },
      holdDays: 21,
      widget: {
        position: "bottom-left",
        color: "#2e6b4f",
        buttonText: "Share & save 15%",
        friendTitle: "Anna sent you 15% off",
      },
    });

    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel("Button text", { exact: true }).inputValue()).toBe("Share & save 15%");
    expect(await page.getByLabel("Hold period (days)").inputValue()).toBe("21");
    expect(await page.getByLabel("Amount", { exact: true }).inputValue()).toBe("12.5");
    expect(await page.getByLabel("Refer-a-friend program is on").isChecked()).toBe(true);
    expect(await previewButton.innerText()).toBe("Share & save 15%");
    expect(await page.getByTestId("referral-preview-widget").getAttribute("data-position")).toBe("bottom-left");

    // The history is one click away.
    await page.getByRole("link", { name: "Referral history" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/referrals/history");
    expect(errors.all).toEqual([]);
  });
});
