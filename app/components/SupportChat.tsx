import { useEffect } from "react";
import { chatSessionData, type ChatConfig } from "~/lib/support-chat";
import type { ShopRecord } from "~/models/shop/shop-record";

// Loads the live-chat widget the environment names, hands it the six values
// of spec section 1, and registers it as window.appSupportChat so the support
// contact (lib/support.ts) opens it when it is there and visible.

type Queue = unknown[][];
interface ChatWindow {
  $crisp?: Queue & { is?: (what: string) => boolean };
  CRISP_WEBSITE_ID?: string;
  Tawk_API?: {
    onLoad?: () => void;
    setAttributes?: (attrs: Record<string, string>, cb?: (error?: unknown) => void) => void;
    isChatHidden?: () => boolean;
    maximize?: () => void;
  };
  Tawk_LoadStart?: Date;
  intercomSettings?: Record<string, unknown>;
  Intercom?: ((command: string, ...args: unknown[]) => void) & { booted?: boolean };
}

export function SupportChat({ chat, shop }: { chat: ChatConfig; shop: ShopRecord }) {
  const data = JSON.stringify(chatSessionData(shop));
  useEffect(() => {
    if (window.appSupportChat) return;
    const w = window as unknown as ChatWindow & Window;
    const values = JSON.parse(data) as Record<string, string>;
    if (chat.provider === "crisp") {
      w.$crisp = w.$crisp ?? [];
      w.CRISP_WEBSITE_ID = chat.siteId;
      w.$crisp.push(["set", "user:email", [values.admin_contact]]);
      w.$crisp.push(["set", "session:data", [Object.entries(values)]]);
      w.appSupportChat = {
        isVisible: () => typeof w.$crisp?.is === "function" && w.$crisp.is("chat:visible"),
        open: () => w.$crisp?.push(["do", "chat:open"]),
      };
    } else if (chat.provider === "tawk") {
      const api = (w.Tawk_API = w.Tawk_API ?? {});
      w.Tawk_LoadStart = new Date();
      api.onLoad = () => api.setAttributes?.(values);
      w.appSupportChat = {
        isVisible: () => typeof api.isChatHidden === "function" && !api.isChatHidden(),
        open: () => api.maximize?.(),
      };
    } else {
      w.intercomSettings = { app_id: chat.siteId, email: values.admin_contact, ...values };
      w.appSupportChat = {
        isVisible: () => typeof w.Intercom === "function",
        open: () => w.Intercom?.("show"),
      };
    }
    const script = document.createElement("script");
    script.src = chat.scriptUrl;
    script.async = true;
    if (chat.provider === "intercom") script.onload = () => w.Intercom?.("boot", w.intercomSettings);
    document.head.appendChild(script);
  }, [chat.provider, chat.siteId, chat.scriptUrl, data]);
  return null;
}
