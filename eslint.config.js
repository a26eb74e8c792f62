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
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
);
