// Settings tabs, each a route of its own at /{role}/settings/{tab}
// ($role.settings.{tab}.tsx), listed on the settings index with its title
// and its one-line description (`Settings:descriptions.{key}`). "general"
// holds the shop fields of the spec's shop record (language, money format,
// link parameter). Staff is added there for admins only.
export const SETTINGS_TABS = [
  { tab: "general", ns: "Settings", titleKey: "tabs.general", key: "general" },
  { tab: "branding", ns: "Settings.Branding", titleKey: "title", key: "branding" },
  { tab: "integrations", ns: "Settings.Integrations", titleKey: "title", key: "integrations" },
  { tab: "flow", ns: "Settings.Integrations", titleKey: "flow.title", key: "flow" },
  { tab: "marketings", ns: "Settings.Marketings", titleKey: "title", key: "marketings" },
  { tab: "marketplace", ns: "Settings.Marketplace", titleKey: "title", key: "marketplace" },
  { tab: "payment", ns: "Settings.Payment", titleKey: "title", key: "payment" },
  { tab: "tax", ns: "Tax", titleKey: "settings.title", key: "tax" },
  { tab: "translations", ns: "Settings.Translations", titleKey: "title", key: "translations" },
  { tab: "networks", ns: "Settings", titleKey: "tabs.networks", key: "networks" },
  { tab: "autotier", ns: "Settings", titleKey: "tabs.autotier", key: "autotier" },
  { tab: "promote-link", ns: "Settings", titleKey: "tabs.promoteLink", key: "promoteLink" },
] as const;

export const SETTINGS_NAMESPACES = Array.from(new Set(SETTINGS_TABS.map((t) => t.ns)));
