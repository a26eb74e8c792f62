import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  copyFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port";

// Images cannot be pulled where the tests run, so this runs the Dockerfile's
// own steps in a clean copy, outside the repository (no parent node_modules
// to fall back on): the build stage's output, the deps stage's production
// install, the run stage's COPY, ENV, RUN and USER lines, then its CMD in
// production mode against a fresh PostgreSQL database until /healthz and
// /readyz answer 200, and its HEALTHCHECK command against that.
//
// The deps stage's `npm ci --omit=dev` is modelled, not run: run for real it
// took 2 min 50 s here (470 MB extracted, better-sqlite3 compiled). The model
// takes the packages `npm ls --omit=dev --all` names in this checkout (for
// this lock file it listed exactly the 399 packages a real `npm ci --omit=dev`
// installed), links their files into the copy with what their install
// scripts made here (better-sqlite3's binary, @prisma/client's .prisma stub)
// and runs the root postinstall as npm would, with npm_config_omit=dev. DOCKERFILE_REAL_INSTALL=1 runs the real command instead.

const ROOT = path.resolve(__dirname, "../..");
const REAL_INSTALL = process.env.DOCKERFILE_REAL_INSTALL === "1";
const PG_BASE = process.env.TEST_DATABASE_URL?.startsWith("postgres")
  ? process.env.TEST_DATABASE_URL
  : "postgresql://postgres@127.0.0.1:5432/postgres";

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

/** The Dockerfile as stages of instructions (continuations joined, comments dropped, ARGs expanded in FROM). */
function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op) throw new Error(`cannot read Dockerfile line: ${line}`);
    const upper = op.toUpperCase();
    if (upper === "ARG" && !stages.length) {
      const [name, value = ""] = rest!.split("=");
      args[name!.trim()] = value.trim();
    } else if (upper === "FROM") {
      const expanded = rest!.replace(/\$\{(\w+)\}/g, (_, n: string) => args[n] ?? "");
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(expanded) ?? [];
      stages.push({ name: name ?? `stage${stages.length}`, from: from!, steps: [] });
    } else stages.at(-1)!.steps.push({ op: upper, args: rest!.replace(/\s+/g, " ").trim() });
  }
  return stages;
}

const execForm = (args: string) => JSON.parse(args.replace(/^CMD\s+/, "")) as string[];
const stepsOf = (stage: Stage, op: string) => stage.steps.filter((s) => s.op === op).map((s) => s.args);
/** KEY=value pairs of the stage's ENV lines. */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of stepsOf(stage, "ENV")) for (const [, k, v] of line.matchAll(/(\w+)=(\S+)/g)) env[k!] = v!;
  return env;
}

const dockerfile = parseDockerfile(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
const stage = (name: string) => dockerfile.find((s) => s.name === name)!;
const runStage = dockerfile.at(-1)!;

describe("the Dockerfile", () => {
  it("builds with the dev dependencies and runs production ones only, in production mode, unprivileged, with a health check", () => {
    expect(dockerfile.map((s) => s.name)).toEqual(["base", "build", "deps", "run"]);
    expect(stepsOf(stage("build"), "RUN")).toEqual(["npm ci", "npm run build"]);
    expect(stepsOf(stage("deps"), "RUN")).toEqual(["npm ci --omit=dev"]);
    // The run stage starts from the bare Node image: no compiler, no sources
    // but what it copies from the build and deps stages.
    expect(runStage.from).toBe(stage("base").from);
    for (const copy of stepsOf(runStage, "COPY")) expect(copy).toMatch(/^--from=(build|deps) /);
    expect(stepsOf(runStage, "COPY").find((c) => c.includes("node_modules"))).toMatch(/^--from=deps /);
    expect(envOf(runStage).NODE_ENV).toBe("production");
    const user = stepsOf(runStage, "USER")[0];
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user);
    const healthcheck = stepsOf(runStage, "HEALTHCHECK")[0]!;
    expect(healthcheck).toMatch(/\/healthz/);
    // start.ts applies the migrations before it serves.
    expect(execForm(stepsOf(runStage, "CMD")[0]!)).toEqual(["node", "--import", "tsx", "app/cli/start.ts"]);
  });

  const work: string[] = [];
  const children: ChildProcess[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await dropDatabase?.();
    // Some 50,000 links: removed after the run, not while CI waits (tens of seconds here).
    for (const dir of work) spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref();
  });

  it(
    "serves /healthz and /readyz in production mode on PostgreSQL when its steps run in a clean copy",
    async (ctx) => {
      const admin = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
      try {
        await admin.connect();
      } catch {
        ctx.skip(); // no PostgreSQL on this machine
        return;
      }
      const dbName = `t_docker_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE "${dbName}"`);
      await admin.end();
      dropDatabase = async () => {
        const c = new pg.Client({ connectionString: PG_BASE });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
        await c.end();
      };
      const databaseUrl = Object.assign(new URL(PG_BASE), { pathname: `/${dbName}` }).toString();

      // Build stage: this checkout, built as `npm test` builds it.
      if (!existsSync(path.join(ROOT, "build/index.js")))
        execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT });
      const top = mkdtempSync(path.join(os.tmpdir(), "dockerfile-steps-"));
      work.push(top);
      chmodSync(top, 0o755);
      const dirs: Record<string, string> = { build: ROOT, deps: path.join(top, "deps"), run: path.join(top, "run") };
      const workdir = stepsOf(runStage, "WORKDIR")[0]!; // /app in every stage
      const inStage = (name: string, p: string) =>
        path.join(dirs[name]!, path.relative(workdir, path.resolve(workdir, p)));

      // Base stage for deps: `COPY . .` of what .dockerignore lets through.
      copySources(dirs.deps!);
      // Deps stage: its one RUN line.
      if (REAL_INSTALL)
        execFileSync("sh", ["-c", `${stepsOf(stage("deps"), "RUN")[0]} --prefer-offline`], {
          cwd: dirs.deps,
          stdio: "inherit",
        });
      else modelProductionInstall(dirs.deps!);

      // Run stage: its COPY, RUN and ENV lines, as its USER.
      mkdirSync(dirs.run!, { recursive: true });
      for (const copy of stepsOf(runStage, "COPY")) {
        const [, from, rest] = /^--from=(\w+) (.*)$/.exec(copy)!;
        const parts = rest!.split(" ");
        const dest = inStage("run", parts.pop()!);
        for (const src of parts) {
          const source = inStage(from!, src);
          const target = parts.length > 1 || lstatSync(source).isFile() ? path.join(dest, path.basename(source)) : dest;
          linkTree(source, target);
        }
      }
      const uid = process.getuid?.() === 0 ? 1000 : undefined; // the node image's `node` user
      for (const run of stepsOf(runStage, "RUN")) {
        const [, made] = /^mkdir -p (\S+) && chown node:node \S+$/.exec(run) ?? [];
        if (!made) throw new Error(`no model for the run stage's RUN ${run}`);
        mkdirSync(inStage("run", made), { recursive: true });
        if (uid !== undefined) chownSync(inStage("run", made), uid, uid);
      }
      // Nothing of the dev dependencies came along.
      for (const dev of ["vitest", "@remix-run/dev", "@shopify/cli", "eslint", "playwright-core"])
        expect(existsSync(path.join(dirs.run!, "node_modules", dev)), dev).toBe(false);

      const port = await freePort();
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? "",
        ...Object.fromEntries(
          Object.entries(envOf(runStage)).map(([k, v]) => [k, v.startsWith(workdir) ? inStage("run", v) : v]),
        ),
        HOME: inStage("run", envOf(runStage).DATA_DIR!),
        HOST: "127.0.0.1",
        PORT: String(port),
        // The README's production variables.
        DATABASE_URL: databaseUrl,
        SHOPIFY_API_KEY: API_KEY,
        SHOPIFY_API_SECRET: API_SECRET_KEY,
        SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
        SESSION_SECRET: "container-session-secret-0123456789",
        PAYPAL_SECRET_KEY: "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
      };
      const [command, ...args] = execForm(stepsOf(runStage, "CMD")[0]!);
      const app = spawn(command!, args, {
        cwd: dirs.run,
        env: env as NodeJS.ProcessEnv,
        uid,
        gid: uid,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(app);
      let output = "";
      app.stdout!.on("data", (c: Buffer) => (output += c.toString()));
      app.stderr!.on("data", (c: Buffer) => (output += c.toString()));

      const answers: Record<string, { status: number; body: unknown }> = {};
      const until = Date.now() + 90_000;
      for (;;) {
        if (app.exitCode !== null) throw new Error(`the container's CMD exited ${app.exitCode}:\n${output}`);
        for (const probe of ["/healthz", "/readyz"]) {
          const res = await fetch(`http://127.0.0.1:${port}${probe}`).catch(() => null);
          if (res) answers[probe] = { status: res.status, body: await res.json().catch(() => null) };
        }
        if (answers["/healthz"]?.status === 200 && answers["/readyz"]?.status === 200) break;
        if (Date.now() > until) throw new Error(`not ready: ${JSON.stringify(answers)}\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(answers["/readyz"]!.body).toMatchObject({ status: "ready", checks: { migrations: { pending: [] } } });
      expect(output).toMatch(/^mode: production \(PostgreSQL/m);

      // The image's HEALTHCHECK command, as Docker runs it inside the container.
      const check = execForm(stepsOf(runStage, "HEALTHCHECK")[0]!.replace(/^.*?CMD /, ""));
      const healthy = spawn(check[0]!, check.slice(1), {
        cwd: dirs.run,
        env: env as NodeJS.ProcessEnv,
        uid,
        gid: uid,
        stdio: "ignore",
      });
      expect(await new Promise((resolve) => healthy.once("exit", resolve))).toBe(0);
    },
    REAL_INSTALL ? 600_000 : 120_000,
  );
});

/** Hard links of a file or folder's files (a copy across file systems), symbolic links kept. */
function linkTree(source: string, target: string, skip: (name: string) => boolean = () => false) {
  const stat = lstatSync(source);
  if (stat.isSymbolicLink()) {
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(readlinkSync(source), target);
  } else if (stat.isDirectory()) {
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(source)) if (!skip(name)) linkTree(path.join(source, name), path.join(target, name));
  } else {
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
  }
}

/** `COPY . .` under .dockerignore (its patterns: a path, a path prefix, `*` within one segment). */
function copySources(target: string) {
  const patterns = readFileSync(path.join(ROOT, ".dockerignore"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}(/|$)`));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })
    .toString()
    .split("\0")
    .filter((f) => f && !patterns.some((p) => p.test(f)) && existsSync(path.join(ROOT, f)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    copyFileSync(path.join(ROOT, file), path.join(target, file));
  }
}

/** What `npm ci --omit=dev` leaves in node_modules, and its root postinstall run as npm runs it. */
function modelProductionInstall(dir: string) {
  const listed = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: ROOT, maxBuffer: 1 << 26 })
    .toString()
    .trim()
    .split("\n")
    .map((p) => path.relative(ROOT, p))
    .filter((p) => p.startsWith("node_modules/"));
  // Patched packages are copied, so patch-package never writes through a link into this checkout.
  const patched = readdirSync(path.join(ROOT, "app/patches")).map((f) =>
    f.replace(/\+[^+]*\.patch$/, "").replace("+", "/"),
  );
  for (const rel of listed) {
    const source = path.join(ROOT, rel);
    const target = path.join(dir, rel);
    if (lstatSync(source).isSymbolicLink()) {
      linkTree(source, target); // a workspace
      continue;
    }
    // Nested node_modules hold packages of their own, listed (or not) by npm ls.
    const skip = (name: string) => name === "node_modules";
    if (patched.some((p) => rel === `node_modules/${p}`)) copyTree(source, target, skip);
    else linkTree(source, target, skip);
  }
  // What the packages' own install scripts made: better-sqlite3's compiled
  // binary is inside its folder (linked above); @prisma/client's postinstall
  // writes the default client stub to node_modules/.prisma.
  linkTree(path.join(ROOT, "node_modules/.prisma"), path.join(dir, "node_modules/.prisma"));
  // The bin links npm makes for the installed packages (the postinstall calls patch-package and tsx).
  const bin = path.join(ROOT, "node_modules/.bin");
  for (const name of readdirSync(bin)) {
    const resolved = path.relative(ROOT, path.resolve(bin, readlinkSync(path.join(bin, name))));
    if (listed.some((rel) => resolved.startsWith(`${rel}/`)))
      linkTree(path.join(bin, name), path.join(dir, "node_modules/.bin", name));
  }
  execFileSync("npm", ["run", "postinstall", "--silent"], {
    cwd: dir,
    env: { ...process.env, npm_config_omit: "dev" },
    stdio: "pipe",
  });
}

function copyTree(source: string, target: string, skip: (name: string) => boolean) {
  const stat = lstatSync(source);
  if (stat.isDirectory()) {
    mkdirSync(target, { recursive: true });
    for (const name of readdirSync(source))
      if (!skip(name)) copyTree(path.join(source, name), path.join(target, name), skip);
  } else if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
  else copyFileSync(source, target);
}
