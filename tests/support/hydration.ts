import type { Page } from "playwright-core";

// Kept apart from admin-browser.ts (which imports vitest): the vitals bench
// runs outside vitest and waits for hydration too.

/**
 * Waits until the page is interactive: the Remix router exists and has its
 * data, and React has committed the hydrated tree (the root document marks
 * <html> data-hydrated in an effect), and no navigation is under way.
 * Clicking earlier would follow links as plain full-page loads, and buttons
 * would do nothing at all.
 */
export async function waitForHydration(page: Page) {
  const hydrated = () => {
    const router = (window as { __remixRouter?: { state: { initialized: boolean; navigation: { state: string } } } })
      .__remixRouter;
    return (
      router?.state.initialized === true &&
      router.state.navigation.state === "idle" &&
      document.documentElement.hasAttribute("data-hydrated")
    );
  };
  await page.waitForFunction(hydrated, undefined, { timeout: 15_000 }).catch((error: Error) => {
    // Usually a client bundle that failed to load, e.g. because build/ was
    // rebuilt while the server still serves the old build's pages.
    throw new Error(`${page.url()} did not hydrate (is build/ current, and not being rebuilt?): ${error.message}`);
  });
}
