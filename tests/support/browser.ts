import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, inject } from "vitest";
import { BROWSER_LAUNCH_OPTIONS, chromiumCandidates, findChromium } from "./chromium";

export { chromiumCandidates, findChromium };

// A real Chromium for the e2e tests, driven by playwright-core. We never
// download a browser: the system's Chromium is used, and without one the
// suite is skipped (loudly) on a developer machine but fails under CI=true,
// so a CI image that lost its browser cannot pass by testing nothing.

export const SKIP_MESSAGE =
  "E2E browser tests SKIPPED: no Chromium found (install the Debian package 'chromium' or set CHROMIUM_PATH)";

const SCREENSHOT_DIR = path.resolve(__dirname, "../.artifacts/screenshots");

/**
 * Whether a browser suite should be skipped: only when there is no Chromium
 * and we are not on CI. On CI the suite runs and useBrowser() fails it.
 */
export function skipWithoutChromium(executablePath: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (executablePath) return false;
  if (env.CI === "true") return false;
  console.warn(SKIP_MESSAGE);
  return true;
}

export function launchBrowser(executablePath: string): Promise<Browser> {
  // chromium.launch gives every browser a fresh temporary profile and removes it on close.
  return chromium.launch({ executablePath, ...BROWSER_LAUNCH_OPTIONS });
}

/**
 * The run's shared Chromium (tests/support/browser-server.ts, the e2e
 * project's global setup) when there is one, else a browser of our own (a
 * file run outside that project). Closing a connected browser closes the
 * contexts this file made and disconnects; the shared one keeps running.
 */
function openBrowser(executablePath: string): Promise<Browser> {
  const shared = inject("sharedChromium");
  // Only the very Chromium this file asked for (a file may name another).
  return shared && shared.executablePath === executablePath
    ? chromium.connect(shared.endpoint)
    : launchBrowser(executablePath);
}

export interface PageProblem {
  kind: "pageerror" | "console";
  text: string;
  url: string;
}

/**
 * Records uncaught exceptions and console errors of one page, so a test can
 * assert that nothing went wrong even where the screen looks fine.
 */
export class PageErrors {
  readonly all: PageProblem[] = [];
  /** Answers of 400 or more and requests that got no answer, for the failure report (not asserted). */
  readonly http: string[] = [];

  constructor(page: Page) {
    page.on("response", (response) => {
      if (response.status() >= 400)
        this.http.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    page.on("requestfailed", (request) =>
      this.http.push(`failed (${request.failure()?.errorText}) ${request.method()} ${request.url()}`),
    );
    page.on("pageerror", (error) =>
      this.all.push({ kind: "pageerror", text: error.stack ?? String(error), url: page.url() }),
    );
    page.on("console", (message) => {
      if (message.type() === "error") this.all.push({ kind: "console", text: message.text(), url: page.url() });
    });
  }

  /** Problems not matched by any of `expected`, as readable lines for an assertion diff. */
  unexpected(...expected: RegExp[]): string[] {
    return this.all
      .filter((problem) => problem.kind === "pageerror" || !expected.some((pattern) => pattern.test(problem.text)))
      .map((problem) => `${problem.kind} at ${problem.url}: ${problem.text}`);
  }
}

/** Chrome's console line for a response with an error status, e.g. the 403 of a forbidden page. */
export function failedResource(status: number): RegExp {
  return new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`);
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  errors: PageErrors;
}

/**
 * Registers hooks that open a Chromium for the enclosing suite and close
 * every session's context after each test. Throws (failing the suite) when
 * there is no Chromium, which only happens when skipWithoutChromium() said
 * not to skip, i.e. on CI.
 */
export function useBrowser(executablePath: string | undefined): {
  newSession: (baseURL: string) => Promise<BrowserSession>;
} {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const sessions: BrowserSession[] = [];

  beforeAll(async () => {
    if (!executablePath) {
      throw new Error(
        `E2E browser tests FAILED: CI=true requires a Chromium but none was found (looked at: ${chromiumCandidates().join(", ") || "nothing"}). ` +
          "Install the Debian package 'chromium' or set CHROMIUM_PATH.",
      );
    }
    browser = await openBrowser(executablePath);
  });

  afterEach(async ({ task }) => {
    const opened = sessions.splice(0);
    if (task.result?.state === "fail") await reportFailure(task.name, opened);
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    async newSession(baseURL: string) {
      if (!browser) throw new Error("browser not launched");
      // A context per session: its own cookies, so admin and staff never share a login.
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      const page = await context.newPage();
      const session = { context, page, errors: new PageErrors(page) };
      sessions.push(session);
      return session;
    },
  };
}

/**
 * What each page of a failed test last showed, for a CI log that has no
 * screenshots: its address, its errors, the requests that failed, and a
 * screenshot named after the test (kept where the run keeps artifacts).
 */
async function reportFailure(testName: string, sessions: BrowserSession[]): Promise<void> {
  const slug = testName.replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
  for (const [index, { page, errors }] of sessions.entries()) {
    if (page.isClosed()) continue;
    const shot = screenshotPath(`failed-${slug}-${index + 1}`);
    await page.screenshot({ path: shot, fullPage: true, timeout: 5_000 }).catch(() => undefined);
    const text = await page
      .locator("body")
      .innerText({ timeout: 2_000 })
      .catch(() => "(no text)");
    console.error(
      [
        `[failed test] page ${index + 1}: ${page.url()} (screenshot ${shot})`,
        ...errors.all.map((problem) => `  ${problem.kind} at ${problem.url}: ${problem.text}`),
        ...errors.http.map((line) => `  http ${line}`),
        `  text: ${clip(text.replace(/\s+/g, " "))}`,
      ].join("\n"),
    );
  }
}

/** The start (navigation, heading) and the end (what the test was looking at, often) of a long text. */
function clip(text: string): string {
  return text.length <= 1200 ? text : `${text.slice(0, 300)} … ${text.slice(-900)}`;
}

/** A path in the git-ignored tests/.artifacts/screenshots folder (created on demand). */
export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, `${name}.png`);
}
