// Links that leave the app open in a new tab (spec §2: "External links open
// in a new tab"), and the page they open gets no handle on ours (noopener)
// and no Referer with our URL, which may carry the shop or host (noreferrer).

export const NEW_TAB = { target: "_blank", rel: "noopener noreferrer" } as const;

/** An absolute (or protocol-relative) web address: it leaves the app's router. */
export function isExternalUrl(url: string): boolean {
  return /^(https?:)?\/\//i.test(url.trim());
}

/** mailto: and tel: hand over to another program; a new tab would stay blank. */
export function isHandoverUrl(url: string): boolean {
  return /^(mailto|tel):/i.test(url.trim());
}

/**
 * Attributes for an anchor to `url`: a new tab for web addresses outside the
 * app (or when the caller says the link leaves the app, e.g. a portal page
 * that has no client router), nothing for app paths and mail links.
 */
export function outboundLinkProps(url: string, external = false): Partial<typeof NEW_TAB> {
  if (isHandoverUrl(url)) return {};
  return external || isExternalUrl(url) ? NEW_TAB : {};
}
