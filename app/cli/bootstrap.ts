import path from "node:path";
import { productionProblems, resolveAppMode, type AppMode } from "../lib/app-mode";
import { ensureSecrets, type SecretsResult } from "./secrets";

const root = path.resolve(__dirname, "../..");

/** Where the SQLite file, the secrets and the store simulator's state live. */
export function dataDirectory() {
  return process.env.DATA_DIR ?? path.join(root, "data");
}

/** The environment cannot run the app: said in a sentence, without a stack trace. */
export class StartupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupRefused";
  }
}

export type Environment =
  | { mode: "demo"; root: string; dataDir: string; secrets: SecretsResult }
  | { mode: "production"; root: string; dataDir: string; secrets: null };

/**
 * Environment every process of the app starts from (server, worker,
 * simulator). The demo fills in the secrets it lacks (generated once into
 * DATA_DIR/secrets.json); production reads only the environment and refuses
 * to start when something it needs is missing or a demo-only switch is on.
 */
export function loadEnvironment(): Environment {
  const dataDir = dataDirectory();
  process.env.NODE_ENV ||= "production";
  const mode: AppMode = resolveAppMode(process.env);
  if (mode === "production") {
    const problems = productionProblems(process.env);
    if (problems.length)
      throw new StartupRefused(
        `Production mode (SHOPIFY_API_KEY is set) cannot start: ${problems.join("; ")}. ` +
          "For the demo, unset SHOPIFY_API_KEY or set DEMO=1.",
      );
    return { mode, root, dataDir, secrets: null };
  }
  // Pinned before the generated SHOPIFY_API_KEY lands in the environment, so
  // this process and the ones it starts keep reading "demo".
  process.env.DEMO = "1";
  const secrets = ensureSecrets(dataDir);
  process.env.DATABASE_URL ||= `file:${path.join(dataDir, "app.sqlite")}`;
  return { mode, root, dataDir, secrets };
}

/** Ends the process on a startup failure: a refusal in one line, anything else with its stack. */
export function exitOnStartupError(error: unknown): never {
  if (error instanceof StartupRefused || (error instanceof Error && /^Invalid configuration/.test(error.message)))
    console.error(error.message);
  else console.error(error);
  process.exit(1);
}
