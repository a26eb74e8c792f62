// Spec section 8: support contact opens a chat widget if one is present and
// visible, else a prefilled e-mail to the support address with the subject
// "[product name] {topic} - {shop url}".

export function supportMailto(opts: {
  email: string;
  productName: string;
  topic: string;
  shopUrl?: string | null;
}): string {
  const subject = `[${opts.productName}] ${opts.topic}${opts.shopUrl ? ` - ${opts.shopUrl}` : ""}`;
  return `mailto:${opts.email}?subject=${encodeURIComponent(subject)}`;
}

export interface ChatWidget {
  isVisible(): boolean;
  open(): void;
}

declare global {
  interface Window {
    // A live-chat integration registers itself here when the merchant enables one.
    appSupportChat?: ChatWidget;
  }
}

/** Opens the chat widget when there is a visible one; returns whether it did. */
export function openSupportChat(): boolean {
  if (typeof window === "undefined") return false;
  const chat = window.appSupportChat;
  if (chat && chat.isVisible()) {
    chat.open();
    return true;
  }
  return false;
}

/**
 * Spec section 2, generic error screen: an affiliate's reload reloads the
 * page. Otherwise reload with a host parameter if the app config has one,
 * else with a shop parameter set to the shop url.
 */
export function reloadTarget(opts: {
  currentHref: string;
  role: "admin" | "staff" | "affiliate";
  host?: string | null;
  shopUrl?: string | null;
}): string {
  if (opts.role === "affiliate") return opts.currentHref;
  const url = new URL(opts.currentHref);
  if (opts.host) url.searchParams.set("host", opts.host);
  else if (opts.shopUrl) url.searchParams.set("shop", opts.shopUrl);
  return url.toString();
}
