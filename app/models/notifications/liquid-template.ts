import { decodeHTML } from "entities";
import { Liquid } from "liquidjs";

// Notification templates are Liquid (what Shopify merchants already write),
// run by liquidjs with no file system (`templates: {}` makes include/render
// look only in an empty in-memory map), no prototype access, unknown filters
// refused at parse time, and limits on template size, render steps and
// memory, since a merchant's template runs on our worker.
//
// A body is text with Liquid; it may hold inline HTML (<b>, <a href>). The
// HTML part renders it with output escaping on (values are escaped, the
// merchant's own markup stays) and turns blank lines into paragraphs; the
// text part strips the markup from that rendering and decodes the entities.

const LIMITS = { parseLimit: 100_000, renderLimit: 2_000, memoryLimit: 10_000_000 };

/**
 * The three engines' options (plain data: template-threads.server.ts hands
 * them to its worker threads, which build the same engines).
 */
export const ENGINE_OPTIONS = {
  html: { outputEscape: "escape", strictFilters: true, templates: {}, ownPropertyOnly: true, ...LIMITS },
  text: { strictFilters: true, templates: {}, ownPropertyOnly: true, ...LIMITS },
  // Saving checks the template against sample data with this one, so a typo
  // in a variable name is caught before the first real e-mail goes out.
  strict: { strictFilters: true, strictVariables: true, templates: {}, ownPropertyOnly: true, ...LIMITS },
} as const;

const htmlEngine = new Liquid(ENGINE_OPTIONS.html);
const textEngine = new Liquid(ENGINE_OPTIONS.text);
const strictEngine = new Liquid(ENGINE_OPTIONS.strict);

export type TemplateValues = Record<string, unknown>;

export interface TemplateProblem {
  message: string;
  line: number | null;
}

export function problemOf(error: unknown): TemplateProblem {
  const err = error as { message?: string; token?: { getPosition?: () => [number, number] } };
  const position = err.token?.getPosition?.();
  const message = String(err.message ?? error).replace(/, line:\d+, col:\d+$/, "");
  return { message, line: position ? position[0] : null };
}

/** Why a template cannot be saved (parse error or unknown variable, with its line), or null. */
export async function checkTemplate(source: string, sample: TemplateValues): Promise<TemplateProblem | null> {
  try {
    const parsed = strictEngine.parse(source);
    await strictEngine.render(parsed, sample);
    return null;
  } catch (error) {
    return problemOf(error);
  }
}

/** The text part: links keep their address, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  return (
    html
      .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) =>
        label.trim() === href ? href : `${label} (${href})`,
      )
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<[^>]+>/g, "")
      // Every entity, named or numeric: liquidjs escapes a quote as &#34;, and
      // merchants type &nbsp; or &eacute; into bodies. Decoded last, so a
      // decoded "<" is text, never taken for a tag.
      .replace(/&[#A-Za-z0-9]+;?/g, (entity) => decodeHTML(entity))
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

const URL_IN_TEXT = /(^|[\s(])(https?:\/\/[^\s<>"')]+)/g;

/** Escaped body → paragraphs, line breaks and clickable addresses (not inside an existing tag). */
export function paragraphs(html: string): string {
  return html
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const linked = /<a\s/i.test(block) ? block : block.replace(URL_IN_TEXT, '$1<a href="$2">$2</a>');
      return `<p>${linked.trim().replace(/\n/g, "<br>\n")}</p>`;
    })
    .join("\n");
}

export interface RenderedParts {
  subject: string;
  /** The body's HTML (without the layout). */
  bodyHtml: string;
  text: string;
}

// Parsed templates by engine and source: a bulk send renders one template
// thousands of times, and parsing was most of the rendering's cost. A parsed
// template is not changed by rendering; an edited one is a new source.
const MAX_PARSED = 500;
const parsedCache = new Map<string, ReturnType<Liquid["parse"]>>();

function parsed(engine: Liquid, kind: string, source: string) {
  const id = `${kind}\n${source}`;
  let templates = parsedCache.get(id);
  if (!templates) {
    templates = engine.parse(source);
    if (parsedCache.size >= MAX_PARSED) parsedCache.delete(parsedCache.keys().next().value!);
    parsedCache.set(id, templates);
  }
  return templates;
}

export async function renderTemplate(subject: string, body: string, values: TemplateValues): Promise<RenderedParts> {
  const [subjectText, html] = await Promise.all([
    textEngine.render(parsed(textEngine, "text", subject), values),
    htmlEngine.render(parsed(htmlEngine, "html", body), values),
  ]);
  return finishParts(subjectText, html);
}

/** The parts of an e-mail from the rendered subject and (escaped) body. */
export function finishParts(subjectText: string, html: string): RenderedParts {
  return {
    // A subject is one line of plain text, whatever a template holds.
    subject: subjectText.replace(/\s+/g, " ").trim(),
    bodyHtml: paragraphs(html),
    // From the escaped rendering: the merchant's tags go, a value that looks like a tag stays.
    text: htmlToText(html),
  };
}
