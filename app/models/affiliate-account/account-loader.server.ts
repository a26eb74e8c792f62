import { getConfig } from "../../config.server";
import { requireAffiliate } from "./affiliate-session.server";

// Child pages of /account re-check the session themselves: Remix runs loaders
// in parallel, so the layout's check does not guard them.
export async function accountContext(request: Request) {
  const ctx = await requireAffiliate(request);
  return { ...ctx, appUrl: getConfig().appUrl };
}
