// Shopify CLI installs and bundles @shopify/web-pixels-extension when it
// builds this extension; the app itself does not depend on it. This loose
// declaration lets the repository's type check pass without the package.
declare module "@shopify/web-pixels-extension" {
  export function register(extend: (api: any) => void): void;
}
