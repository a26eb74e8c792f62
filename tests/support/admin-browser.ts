import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { TEST_PASSWORD } from "./builders";
import { waitForHydration } from "./hydration";

export { waitForHydration };

// Steps of the admin in a real browser, shared by the e2e test files.

// The crash screen (root and shell) and the in-page render-error fallback.
export const ERROR_SCREEN = /Whoops, something went wrong\.|This page could not be displayed/;

/**
 * Waits until every Polaris IndexTable on the page has finished loading, as a
 * user waits for its spinner to go. While loading, and for a moment while it
 * fades out after the new rows are in, the "Loading …" panel lies over the
 * header row: a click on the select-all checkbox then lands on the panel.
 */
export async function waitForTableLoaded(page: Page) {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll(".Polaris-IndexTable__LoadingPanel")].every(
        (panel) => getComputedStyle(panel).visibility === "hidden",
      ),
    undefined,
    { timeout: 15_000 },
  );
}

export async function logIn(page: Page, role: "admin" | "staff", email: string, password = TEST_PASSWORD) {
  await page.goto(role === "admin" ? "/login" : "/staff/login");
  await waitForHydration(page);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
}

/**
 * Waits for a (usually client-side) navigation to `pathname` and its page
 * title, failing early and clearly if an error screen shows instead.
 * Client-side navigations fire no load event, hence waitUntil "commit".
 */
export async function expectPage(page: Page, pathname: string, title: string) {
  await page.waitForURL((url) => url.pathname === pathname, { waitUntil: "commit" });
  const heading = page.getByRole("heading", { level: 1, name: title, exact: true });
  const crash = page.getByText(ERROR_SCREEN);
  await heading.or(crash).first().waitFor();
  expect(await crash.count(), `error screen on ${pathname}`).toBe(0);
  expect(await heading.count(), `title "${title}" on ${pathname}`).toBe(1);
}

export function menu(page: Page) {
  return page.getByRole("navigation");
}

export function menuLink(page: Page, label: string) {
  return menu(page).getByRole("link", { name: label, exact: true });
}

export async function menuLabels(page: Page): Promise<string[]> {
  return (await menu(page).getByRole("link").allInnerTexts()).map((text) => text.trim());
}

/** The dashboard's analytics tiles as shown. */
export async function dashboardTiles(page: Page) {
  const text = async (id: string) => (await page.locator(`#${id}`).innerText()).trim();
  return {
    revenue: await text("tile-revenue"),
    commission: await text("tile-commission"),
    sales: await text("tile-sales"),
    clicks: await text("tile-clicks"),
  };
}

/**
 * Clicks `target` until `followed` resolves, at most three times. On a loaded
 * CI machine a click can land while React replaces the element under the
 * pointer (Polaris's Tabs re-measure after their counts change; a row
 * re-renders as hydration's last commit lands) and nothing follows: a person
 * clicks again, and so does a test. `followed` should time out early (5 s).
 */
export async function clickUntil(target: Locator, followed: () => Promise<unknown>) {
  for (let attempt = 1; ; attempt++) {
    await target.click();
    try {
      await followed();
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
