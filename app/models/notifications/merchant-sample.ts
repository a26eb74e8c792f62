import { formatMoneyIn } from "../../i18n/format";
import { SAMPLE_SHOP } from "./kind";

// The editor's preview and test e-mail show the merchant's own shop: its
// name, its storefront and portal links and its currency, with the sample
// affiliate and amounts around them. A preview naming another shop (the
// catalogue's sample) made merchants wonder whose e-mail they were editing.

export interface SampleShop {
  name: string;
  /** The storefront URL. */
  url: string;
  /** The shop's affiliate portal URL. */
  portalUrl: string;
  /** The start of the shop's short links, up to the code ("https://app/r/{shop-handle}/"). */
  shortLinkBase: string;
  currency: string;
  /** The language tag amounts are written in (the recipient's). */
  languageTag: string;
}

const SAMPLE_ORIGIN = new URL(SAMPLE_SHOP["shop.url"]).origin;
const SAMPLE_PORTAL = "https://app.example/portal/aurora-candles";
const SAMPLE_SHORT_LINK = "https://app.example/r/aurora-candles/";
// "$12.50", "-$5.00", "$2,960.00": the catalogue's sample amounts (US dollars).
const SAMPLE_AMOUNT = /^(-?)\$(\d{1,3}(?:,\d{3})*)\.(\d{2})$/;

/** A kind's sample values with the merchant's shop, links and currency in place of the catalogue's sample shop. */
export function merchantSample(variables: Record<string, string>, shop: SampleShop): Record<string, string> {
  const storefront = shop.url.replace(/\/+$/, "");
  const portal = shop.portalUrl.replace(/\/+$/, "");
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    const amount = SAMPLE_AMOUNT.exec(value);
    if (amount) {
      const minor = Number(amount[2]!.replace(/,/g, "")) * 100 + Number(amount[3]);
      out[name] = formatMoneyIn(shop.languageTag, amount[1] ? -minor : minor, shop.currency);
    } else if (value.startsWith(SAMPLE_SHORT_LINK)) {
      out[name] = shop.shortLinkBase + value.slice(SAMPLE_SHORT_LINK.length);
    } else if (value.startsWith(SAMPLE_PORTAL)) {
      out[name] = portal + value.slice(SAMPLE_PORTAL.length);
    } else if (value.startsWith(SAMPLE_ORIGIN)) {
      out[name] = storefront + value.slice(SAMPLE_ORIGIN.length);
    } else {
      out[name] = value;
    }
  }
  if ("shop.name" in out) out["shop.name"] = shop.name;
  if ("shop.url" in out) out["shop.url"] = storefront;
  return out;
}
