// One lint config for the whole repository (ESLint flat config).
const tseslint = require("typescript-eslint");
const reactHooks = require("eslint-plugin-react-hooks");

module.exports = tseslint.config(
  {
    ignores: ["node_modules/", "build/", "public/build/", "app/db/generated/", "tests/.artifacts/", "data/"],
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
);
