import { Toast } from "@shopify/polaris";
import { useEffect, useRef } from "react";

interface Props {
  content: string;
  error?: boolean;
  onDismiss: () => void;
}

/**
 * A short confirmation ("Saved", "Export failed"). Embedded in the Shopify
 * admin it is the admin's own toast (App Bridge's `shopify.toast`), shown
 * where the merchant expects one and not clipped by the app's iframe; the
 * admin then owns it, so this one hands back at once and the next save shows
 * again. Standalone (no App Bridge), Polaris's Toast in the app's Frame.
 */
export function AppToast({ content, error = false, onDismiss }: Props) {
  const bridge = typeof window === "undefined" ? undefined : window.shopify?.toast;
  // Shown once per appearance of this component (the parent unmounts it in onDismiss).
  const shown = useRef(false);
  useEffect(() => {
    if (!bridge || shown.current) return;
    shown.current = true;
    bridge.show(content, { isError: error });
    onDismiss();
  }, [bridge, content, error, onDismiss]);
  if (bridge) return null;
  return <Toast content={content} error={error} onDismiss={onDismiss} />;
}
