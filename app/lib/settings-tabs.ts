// Settings tabs, each at /{role}/settings/{tab}. "general" holds the shop
// fields of the spec's shop record (language, money format, link parameter).
export const SETTINGS_TABS = [
  { tab: "general", ns: "Settings", titleKey: "tabs.general" },
  { tab: "branding", ns: "Settings.Branding", titleKey: "title" },
  { tab: "integrations", ns: "Settings.Integrations", titleKey: "title" },
  { tab: "marketings", ns: "Settings.Marketings", titleKey: "title" },
  { tab: "marketplace", ns: "Settings.Marketplace", titleKey: "title" },
  { tab: "payment", ns: "Settings.Payment", titleKey: "title" },
  { tab: "translations", ns: "Settings.Translations", titleKey: "title" },
  { tab: "networks", ns: "Settings", titleKey: "tabs.networks" },
  { tab: "autotier", ns: "Settings", titleKey: "tabs.autotier" },
  { tab: "promote-link", ns: "Settings", titleKey: "tabs.promoteLink" },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number];

export function findSettingsTab(tab: string | undefined): SettingsTab | undefined {
  return SETTINGS_TABS.find((t) => t.tab === tab);
}

export const SETTINGS_NAMESPACES = Array.from(new Set(SETTINGS_TABS.map((t) => t.ns)));
