import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

// Where the system's Chromium is and how it is started: shared by the e2e
// files (browser.ts) and the e2e project's global setup (browser-server.ts),
// which must not import vitest.

const DEFAULT_CHROMIUM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox", // tests often run as root in containers, where the sandbox cannot start
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const BROWSER_LAUNCH_OPTIONS = { headless: true, args: LAUNCH_ARGS };

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where Chromium is looked for, in order. */
export function chromiumCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const explicit = env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : [];
  // E2E_CHROMIUM_PATHS (a PATH-style list, possibly empty) replaces the
  // default locations, so the skip and CI-failure behaviour can be checked on
  // a machine that does have Chromium installed.
  const override = env.E2E_CHROMIUM_PATHS;
  const defaults = override === undefined ? DEFAULT_CHROMIUM_PATHS : override.split(path.delimiter).filter(Boolean);
  return [...explicit, ...defaults];
}

/** The first usable Chromium: CHROMIUM_PATH, then the usual system locations. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH && !isExecutableFile(env.CHROMIUM_PATH)) {
    console.warn(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file; trying the other locations.`);
  }
  return chromiumCandidates(env).find(isExecutableFile);
}
