// One lint config for the whole repository (ESLint flat config).
const path = require("node:path");
const tseslint = require("typescript-eslint");
const reactHooks = require("eslint-plugin-react-hooks");
const importX = require("eslint-plugin-import-x");

// What a domain module (app/models, app/lib) may not import: the layers above it.
const DOMAIN_PATTERNS = [
  {
    regex: "(^~/(routes|components|server)/|(^|/)(routes|components|server)/)",
    message: "Domain modules may not import routes, components or the HTTP server.",
  },
  {
    // app/worker is the composition root: it imports every domain's job
    // handlers and event subscribers, so nothing below may import it.
    regex: "(^~/worker/|(^|/)worker/)",
    message: "Domain modules may not import app/worker (the composition root); export a handler for it instead.",
  },
];
// models/api is the REST adapter above the domains: they own their vocabulary and never import it.
const API_PATTERN = {
  regex: "(^~/models/api/|(^|/)models/api/|^(\\.\\./)+api/)",
  message: "models/api is the REST adapter: a domain keeps its own schemas and never imports it.",
};

module.exports = tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "public/build/",
      "app/db/generated/",
      "tests/.artifacts/",
      "data/",
      "extensions/*/dist/",
      "extensions/*/shopify.d.ts",
    ],
  },
  ...tseslint.configs.recommended,
  {
    // Test helpers named useX register vitest hooks; React's rules apply to the app only.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Routes reach data only through the door's shop-scoped client (app/door):
    // no raw client, no storage plumbing, no ad-hoc auth or body parsing.
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(~|\\.\\.?)/(.*/)?(db\\.server|db/(client|bulk-sql|migrate|shop-db)\\.server)$",
              message: "Routes get the shop's database client from the door (app/door); they never import a client.",
            },
            {
              regex: "^(~|\\.\\.?)/(.*/)?db/generated/",
              allowTypeImports: true,
              message: "Routes may import Prisma's types, not its client.",
            },
            {
              regex: "^(~|\\.\\.?)/(.*/)?models/(auth/require-merchant|affiliate-account/affiliate-session)\\.server$",
              importNames: ["requireMerchant", "requireApiMerchant", "requireAffiliate"],
              message: "Authentication happens at the door (merchantRoute, affiliateRoute).",
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // No import cycles anywhere: a module graph that points one way is what
    // lets a layer (app/db, app/models/<domain>, components, routes) be read
    // and changed on its own. The resolver knows the `~/` alias of tsconfig.
    files: ["**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [
        importX.createNodeResolver({
          extensions: [".ts", ".tsx", ".js", ".json"],
          alias: { "~": [path.join(__dirname, "app")] },
        }),
      ],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Storage plumbing knows nothing of the product: app/db is used by the
    // domain modules, never the other way round.
    files: ["app/db/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              // lib/log-text is a pure string helper every layer uses to escape log values.
              regex:
                "(^~/(models|routes|components|server)/|(^|/)(models|routes|components|server)/|(^~/|(^|/))lib/(?!log-text$))",
              message: "app/db is the bottom layer: it may not import domain, server, route or component modules.",
            },
          ],
        },
      ],
    },
  },
  {
    // Domain modules serve routes, servers and the worker; they never reach up into them.
    files: ["app/models/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [...DOMAIN_PATTERNS, API_PATTERN] }] },
  },
  {
    files: ["app/models/api/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_PATTERNS }] },
  },
  {
    // The kernel every domain uses: job payloads and enqueue, event types and
    // emit. It knows no domain, so that adding a job or an event never makes
    // two domains depend on each other through it (app/worker wires them).
    files: ["app/models/jobs/**/*.{ts,tsx}", "app/models/events/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...DOMAIN_PATTERNS,
            API_PATTERN,
            {
              regex: "(^\\.\\./(?!\\.\\./|jobs/|events/)|^~/models/(?!jobs/|events/))",
              message:
                "models/jobs and models/events import no domain: register handlers and subscribers in app/worker.",
            },
          ],
        },
      ],
    },
  },
  {
    // Components are used by routes, never the other way round.
    files: ["app/components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^~/routes/|(^|/)routes/)",
              message: "Components must not import from routes: move what both need into app/components or app/lib.",
            },
          ],
        },
      ],
    },
  },
  {
    // Settings come from the validated configuration (app/config.server.ts),
    // never from process.env read here and there: one place says what each
    // setting is, its default, and refuses a bad value at start-up. The
    // command-line entry points (app/cli) set up the environment itself.
    files: ["app/**/*.{ts,tsx}"],
    // The CLI and the store simulator (a stand-in for Shopify that the CLI
    // starts) set up the environment the app then reads through its config.
    ignores: ["app/config.server.ts", "app/cli/**", "app/simulator/**", "app/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read settings with getConfig() from app/config.server.ts." },
      ],
    },
  },
);
