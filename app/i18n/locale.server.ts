import { getDb } from "../db.server";
import { getMerchantSession } from "../models/auth/user-session.server";
import { getAffiliateSession } from "../models/affiliate-account/affiliate-session.server";
import { resolveLanguage } from "./languages";

/**
 * The app language follows the shop's general language setting (spec
 * section 1). The shop is found from the merchant session, or, for an
 * embedded document request, from the shop parameter (only its language is
 * read, which is not private).
 */
export async function requestLanguage(request: Request): Promise<string> {
  try {
    const session = await getMerchantSession(request);
    const userId = session.get("userId");
    if (userId) {
      const user = await getDb().user.findUnique({
        where: { id: userId },
        select: { shop: { select: { language: true } } },
      });
      if (user) return resolveLanguage(user.shop.language);
    }
    // An affiliate's own choice (account settings), else their shop's language.
    const affiliateId = (await getAffiliateSession(request)).get("affiliateId");
    if (affiliateId) {
      const affiliate = await getDb().affiliate.findUnique({
        where: { id: affiliateId },
        select: { language: true, shop: { select: { language: true } } },
      });
      if (affiliate) return resolveLanguage(affiliate.language ?? affiliate.shop.language);
    }
    const shopDomain = new URL(request.url).searchParams.get("shop");
    if (shopDomain) {
      const shop = await getDb().shop.findUnique({ where: { domain: shopDomain }, select: { language: true } });
      if (shop) return resolveLanguage(shop.language);
    }
  } catch {
    // A bad cookie or an unreadable database must not stop the page: use en.
  }
  return resolveLanguage(null);
}
