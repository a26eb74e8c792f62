import { createContext, useContext } from "react";
import { useNonce } from "../lib/nonce";
import { I18N_PAYLOAD_ID } from "./i18n";

// The document's translation payload (i18n.ts, I18nPayload) as its JSON
// text: made by entry.server.tsx, read back by entry.client.tsx from the
// element before hydrating, and rendered by the root document. The same text
// on both sides, so hydration sees no difference.
export const I18nPayloadContext = createContext<string | null>(null);

export function I18nDataScript() {
  const payload = useContext(I18nPayloadContext);
  // A data block runs nothing, but the policy's rule is simple: every inline
  // script carries the nonce.
  const nonce = useNonce();
  if (!payload) return null;
  return (
    <script
      nonce={nonce}
      id={I18N_PAYLOAD_ID}
      type="application/json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: payload }}
    />
  );
}
