import { createHmac } from "node:crypto";

/**
 * The offline access token the store simulator grants an app on a shop. It
 * is derived from the app's secret, so the demo seed can store the session
 * the simulator will accept without the two sharing any state; a token
 * opens one shop only.
 */
export function simulatorAccessToken(apiSecret: string, shop: string): string {
  return `shpat_${createHmac("sha256", apiSecret).update(`store-simulator:${shop}`).digest("hex").slice(0, 32)}`;
}
