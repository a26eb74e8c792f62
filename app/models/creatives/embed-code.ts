// The HTML an affiliate pastes into their site: the creative's image inside
// a link through the affiliate's own tracked link. Every value is escaped
// for an attribute, so a title or address can never end the tag early.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export interface EmbedInput {
  /** The affiliate's tracked link (absolute). */
  href: string;
  /** The image's public address (absolute). */
  src: string;
  alt: string;
  width?: number | null;
  height?: number | null;
}

export function buildEmbedCode(input: EmbedInput): string {
  const size =
    input.width && input.height && input.width > 0 && input.height > 0
      ? ` width="${Math.round(input.width)}" height="${Math.round(input.height)}"`
      : "";
  return (
    `<a href="${escapeHtml(input.href)}" target="_blank" rel="noopener">` +
    `<img src="${escapeHtml(input.src)}" alt="${escapeHtml(input.alt)}"${size} style="max-width:100%;height:auto"></a>`
  );
}

/**
 * A caption or e-mail swipe with the affiliate's link where the merchant
 * wrote {{link}} (the placeholder every text shown to merchants uses, as the
 * share texts of Settings › Marketings do). {link}, which this screen once
 * asked for, still works in texts saved then.
 */
export function fillCaption(body: string, link: string): string {
  return body.replace(/\{\{\s*link\s*\}\}|\{link\}/g, () => link);
}
