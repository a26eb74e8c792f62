import { createHmac } from "node:crypto";
import { getConfig } from "../../config.server";

// Visitors' IP addresses are personal data: the fraud checks only need to
// know that two requests came from the same address, so only a keyed hash is
// stored (keyed with the app secret, so it cannot be reversed by trying every
// address without it).
export function hashIp(ip: string | null | undefined): string | null {
  const value = (ip ?? "").trim();
  if (!value) return null;
  return createHmac("sha256", getConfig().SHOPIFY_API_SECRET).update(`referral-ip:${value}`).digest("hex").slice(0, 32);
}
