import { readFileSync } from "node:fs";
import path from "node:path";

// Shopify checks webPixelCreate's settings against the settings definition
// in the web pixel extension's shopify.extension.toml: every field given must
// be defined there, of its type, and meet its validations. The simulator
// reads the app's own extension file the same way.

const EXTENSION_TOML = path.resolve(__dirname, "../../extensions/affiliate-pixel/shopify.extension.toml");

interface SettingField {
  name: string;
  type: string;
  min: number | null;
}

let cached: SettingField[] | undefined;

/** The `[settings.fields.NAME]` tables of the extension file: type and a `min` validation. */
export function webPixelSettingFields(toml = readFileSync(EXTENSION_TOML, "utf8")): SettingField[] {
  const fields: SettingField[] = [];
  const sections = toml.split(/^\[/m).slice(1);
  for (const section of sections) {
    const head = /^settings\.fields\.([A-Za-z0-9_]+)\]/.exec(section);
    if (!head) continue;
    const type = /^type\s*=\s*"([^"]+)"/m.exec(section)?.[1] ?? "single_line_text_field";
    const min = /name\s*=\s*"min"\s*,\s*value\s*=\s*"(\d+)"/.exec(section)?.[1];
    fields.push({ name: head[1]!, type, min: min ? Number(min) : null });
  }
  return fields;
}

/** What is wrong with a settings object, in words; empty when it fits the definition. */
export function webPixelSettingsProblems(
  settings: Record<string, unknown>,
  fields = (cached ??= webPixelSettingFields()),
) {
  const problems: string[] = [];
  for (const key of Object.keys(settings))
    if (!fields.some((f) => f.name === key)) problems.push(`'${key}' is not a setting of this web pixel extension.`);
  for (const field of fields) {
    const value = settings[field.name];
    if (value === undefined || value === null) {
      if (field.min) problems.push(`'${field.name}' is required.`);
      continue;
    }
    if (field.type.endsWith("text_field") && typeof value !== "string") {
      problems.push(`'${field.name}' must be a string.`);
      continue;
    }
    if (field.min && String(value).length < field.min)
      problems.push(`'${field.name}' must be at least ${field.min} characters long.`);
  }
  return problems;
}
