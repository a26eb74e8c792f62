// Shop.settings is one JSON object whose keys belong to different screens
// (payment, branding, promoteLink, mail, autotier...). Each screen replaces
// only its own key; an unreadable text counts as an empty object, so a
// damaged blob never blocks a save.

/** The settings object in a Shop.settings text ({} when unreadable). */
export function shopSettingsObject(text: string | null | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // unreadable: replaced on the next save
  }
  return {};
}

/** Shop.settings with one key replaced and every other key kept. */
export function withShopSetting(text: string | null | undefined, key: string, value: unknown): string {
  return JSON.stringify({ ...shopSettingsObject(text), [key]: value });
}
