import { chromium, type BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { BROWSER_LAUNCH_OPTIONS, findChromium } from "./chromium";

// The e2e project's global setup: one Chromium for the whole run, which each
// test file connects to (useBrowser), instead of a launch and a close per
// file (about 1-2 s each on a 2-core machine, ~40 files). Files still never
// share state: each session is its own browser context (own cookies and
// storage), closed after each test. Without a Chromium nothing is launched,
// and useBrowser skips or fails the files exactly as before.

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's Chromium, or null when there is none (see useBrowser). */
    sharedChromium: { endpoint: string; executablePath: string } | null;
  }
}

let server: BrowserServer | undefined;

export async function setup(project: TestProject) {
  const executablePath = findChromium();
  if (!executablePath) {
    project.provide("sharedChromium", null);
    return;
  }
  server = await chromium.launchServer({ executablePath, ...BROWSER_LAUNCH_OPTIONS });
  project.provide("sharedChromium", { endpoint: server.wsEndpoint(), executablePath });
}

export async function teardown() {
  await server?.close();
}
