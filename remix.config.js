/** @type {import('@remix-run/dev').AppConfig} */
module.exports = {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  // CommonJS server output: the classic compiler builds and serves Polaris
  // pages server-side this way on Node 20 (see docs/decisions/001).
  serverModuleFormat: "cjs",
  serverPlatform: "node",
  // ESM-only packages, bundled into the CommonJS server build.
  serverDependenciesToBundle: [/^@formatjs\//, /^remix-i18next/, /^d3-/, /^internmap$/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
  },
};
