// Live-chat support (spec sections 1 and 8): one chat widget, chosen by the
// operator through the environment (SUPPORT_CHAT_PROVIDER and
// SUPPORT_CHAT_ID; SUPPORT_CHAT_SCRIPT_URL replaces the provider's loader,
// e.g. with a self-hosted copy). Pure: the server builds the CSP from it and
// the admin shell loads the widget from it.

export const CHAT_PROVIDERS = ["crisp", "tawk", "intercom"] as const;
export type ChatProvider = (typeof CHAT_PROVIDERS)[number];

export interface ChatConfig {
  provider: ChatProvider;
  siteId: string;
  scriptUrl: string;
}

function loaderUrl(provider: ChatProvider, siteId: string): string {
  const id = encodeURIComponent(siteId);
  if (provider === "crisp") return "https://client.crisp.chat/l.js";
  if (provider === "tawk") return `https://embed.tawk.to/${id}/default`;
  return `https://widget.intercom.io/widget/${id}`;
}

/** The chat set up by the environment, or null when there is none (or it is incomplete). */
export function chatConfig(env: { provider?: string; siteId?: string; scriptUrl?: string }): ChatConfig | null {
  const provider = CHAT_PROVIDERS.find((p) => p === env.provider?.trim().toLowerCase());
  const siteId = env.siteId?.trim();
  if (!provider || !siteId || !/^[A-Za-z0-9_/-]{1,100}$/.test(siteId)) return null;
  return { provider, siteId, scriptUrl: env.scriptUrl?.trim() || loaderUrl(provider, siteId) };
}

// Where each provider's widget loads from, talks to and frames (from the
// providers' CSP documentation). A replaced loader is trusted for its own
// origin only.
const PROVIDER_SOURCES: Record<ChatProvider, ChatSources> = {
  crisp: {
    script: ["https://client.crisp.chat", "https://settings.crisp.chat"],
    connect: ["https://client.crisp.chat", "https://storage.crisp.chat", "wss://client.relay.crisp.chat"],
    frame: ["https://game.crisp.chat"],
    style: ["https://client.crisp.chat"],
    font: ["https://client.crisp.chat"],
  },
  tawk: {
    script: ["https://embed.tawk.to", "https://cdn.jsdelivr.net"],
    connect: ["https://*.tawk.to", "wss://*.tawk.to"],
    frame: ["https://*.tawk.to"],
    style: ["https://embed.tawk.to"],
    font: ["https://embed.tawk.to"],
  },
  intercom: {
    script: ["https://widget.intercom.io", "https://js.intercomcdn.com"],
    connect: ["https://*.intercom.io", "wss://*.intercom.io", "https://uploads.intercomcdn.com"],
    frame: ["https://*.intercom.io", "https://intercom-sheets.com"],
    style: ["https://js.intercomcdn.com"],
    font: ["https://js.intercomcdn.com"],
  },
};

export interface ChatSources {
  script: string[];
  connect: string[];
  frame: string[];
  style: string[];
  font: string[];
}

export function chatCspSources(chat: ChatConfig | null): ChatSources {
  if (!chat) return { script: [], connect: [], frame: [], style: [], font: [] };
  const own = loaderUrl(chat.provider, chat.siteId);
  if (chat.scriptUrl !== own) {
    const origin = new URL(chat.scriptUrl).origin;
    return { script: [origin], connect: [origin], frame: [origin], style: [origin], font: [origin] };
  }
  return PROVIDER_SOURCES[chat.provider];
}

/** The six values the support team sees next to a conversation (spec section 1). */
export function chatSessionData(shop: {
  url: string;
  version: string;
  created_at: string;
  configuration: { admin_email: string; plan_name?: string | null };
  pricing?: { plan: string | null };
}): Record<string, string> {
  return {
    store_url: shop.url,
    admin_contact: shop.configuration.admin_email,
    app_version: shop.version,
    pricing_plan: shop.pricing?.plan ?? "",
    store_platform_plan: shop.configuration.plan_name ?? "",
    created_at: shop.created_at,
  };
}
