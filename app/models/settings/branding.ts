import { z } from "zod";
import { msg } from "../../i18n/messages";

// Settings > Branding: the affiliate portal's (and account area's) logo,
// colours, font and favicon, kept in Shop.settings under "branding". Pure:
// the form, the server and the portal's style element share it. Fonts are
// system font stacks only: nothing is fetched from another site.

export const FONT_STACKS = {
  system: "",
  humanist: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  serif: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, 'DejaVu Serif', serif",
  rounded: "ui-rounded, 'Hiragino Maru Gothic ProN', Quicksand, Comfortaa, Manjari, 'Arial Rounded MT', sans-serif",
  mono: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
} as const;
export type FontChoice = keyof typeof FONT_STACKS;
export const FONT_CHOICES = Object.keys(FONT_STACKS) as FontChoice[];

const color = z
  .string()
  .trim()
  .regex(/^(#[0-9a-f]{6})?$/i, msg("Settings.Branding:validation.color"));
// An uploaded image of this shop (checked against its stored files on save) or none.
const image = z
  .string()
  .trim()
  .max(300)
  .regex(/^(\/portal-assets\/[A-Za-z0-9_-]+\/[a-z0-9][a-z0-9._-]*)?$/, msg("Settings.Branding:validation.image"));

export const brandingSchema = z
  .object({
    primary_color: color,
    background_color: color,
    font: z.enum(FONT_CHOICES as [FontChoice, ...FontChoice[]]),
    logo: image,
    favicon: image,
  })
  .strict();

export type Branding = z.infer<typeof brandingSchema>;

export const DEFAULT_BRANDING: Branding = {
  primary_color: "",
  background_color: "",
  font: "system",
  logo: "",
  favicon: "",
};

export function readBranding(settingsJson: string): Branding {
  let stored: unknown;
  try {
    stored = (JSON.parse(settingsJson) as Record<string, unknown>)?.branding;
  } catch {
    stored = undefined;
  }
  const parsed = brandingSchema.safeParse({
    ...DEFAULT_BRANDING,
    ...(stored && typeof stored === "object" ? stored : {}),
  });
  return parsed.success ? parsed.data : DEFAULT_BRANDING;
}

/** A colour a shade darker (hover and pressed states of the brand colour). */
export function darker(hex: string, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.max(0, Math.round(((n >> shift) & 0xff) * (1 - amount)));
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, "0")).join("")}`;
}

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export function textOn(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin((n >> 16) & 0xff) + 0.7152 * lin((n >> 8) & 0xff) + 0.0722 * lin(n & 0xff);
  return l > 0.179 ? "#000000" : "#ffffff";
}

/**
 * The portal's style rules for the branding: Polaris tokens overridden on
 * the page. Built only from validated values (hex colours, the fixed font
 * stacks), so it can be written into a style element as is.
 */
export function brandingCss(b: Branding): string {
  const vars: string[] = [];
  const rules: string[] = [];
  if (b.primary_color) {
    const c = b.primary_color.toLowerCase();
    vars.push(
      `--p-color-bg-fill-brand:${c}`,
      `--p-color-bg-fill-brand-hover:${darker(c, 0.12)}`,
      `--p-color-bg-fill-brand-active:${darker(c, 0.24)}`,
      `--p-color-text-brand-on-bg-fill:${textOn(c)}`,
      `--portal-brand:${c}`,
    );
    rules.push(".portal-topbar{border-bottom:3px solid var(--portal-brand)}");
  }
  if (b.background_color) {
    vars.push(`--p-color-bg:${b.background_color.toLowerCase()}`);
    rules.push(`body{background:${b.background_color.toLowerCase()}}`);
  }
  if (FONT_STACKS[b.font]) {
    vars.push(`--p-font-family-sans:${FONT_STACKS[b.font]}`);
    rules.push("body,.Polaris-Text--root,.Polaris-Button{font-family:var(--p-font-family-sans)}");
  }
  if (vars.length === 0) return "";
  return `:root{${vars.join(";")}}${rules.join("")}`;
}
