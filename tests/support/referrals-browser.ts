import type { Page } from "playwright-core";

// The shopper's steps of refer-a-friend in a browser, on a page of
// startStorefront (tests/support/storefront.ts). Shared by the browser tests
// that go on to the friend's order and the advocate's reward.

/**
 * A signed-in customer opens the widget: recognized (their orders carry the
 * e-mail the theme fills in), they get their share link at once.
 */
export async function getShareLink(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Refer a friend" }).click();
  const panel = page.getByRole("dialog");
  await panel.waitFor();
  const link = panel.getByLabel("Your share link");
  await link.waitFor();
  await page.waitForFunction(() => (document.getElementById("raf-link") as HTMLInputElement | null)?.value);
  return link.inputValue();
}

/** A guest enters an e-mail address: the link goes to that address, and the panel says so. */
export async function askLinkByEmail(page: Page, email: string): Promise<void> {
  await page.getByRole("button", { name: "Refer a friend" }).click();
  const panel = page.getByRole("dialog");
  await panel.waitFor();
  await panel.getByLabel("Your e-mail address").fill(email);
  await panel.getByRole("button", { name: "Get my link" }).click();
  await panel.getByText("Check your inbox: we sent your share link to that e-mail address.").waitFor();
}

/** The friends' code as the advocate's panel shows it, once made in Shopify. */
export async function advocateCode(page: Page): Promise<string> {
  const code = page.getByRole("dialog").locator(".raf-code");
  await code.waitFor({ state: "visible" });
  return (await code.textContent())!.trim();
}

/** A friend opens the share link: the popup offers their code (returned). */
export async function openInvite(page: Page, shareUrl: string): Promise<string> {
  await page.goto(shareUrl);
  const popup = page.getByRole("dialog");
  await popup.waitFor();
  const code = popup.locator(".raf-code");
  await page.waitForFunction(() =>
    /^[A-Z0-9-]{4,}$/.test(document.querySelector("#raf-invite .raf-code")?.textContent ?? ""),
  );
  return (await code.textContent())!.trim();
}

/** The friend applies the code: back on the page they were on, with the code on the cart. */
export async function applyInviteCode(page: Page): Promise<void> {
  await page.getByRole("dialog").getByRole("button", { name: "Apply to my cart" }).click();
  await page.getByTestId("cart").filter({ hasText: "applied" }).waitFor();
}
