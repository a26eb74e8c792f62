import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { navMenuTarget } from "./embedded-params";

/**
 * Clicks in the Shopify admin's app menu (App Bridge's NavMenu) become Remix
 * navigations instead of a reload of the whole iframe. App Bridge announces
 * such a click with a `shopify:navigate` event on the menu's <a> (it
 * bubbles); shopify-app-remix's AppProvider listens the same way, but this app
 * writes its own App Bridge script tag (root.tsx). Listened to on every
 * scripted page: an in-app link may drop the `embedded` parameter the root
 * loader looks at, and without App Bridge nothing sends the event.
 */
export function useAppBridgeNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onNavigate = (event: Event) => {
      const href = event.target instanceof Element ? event.target.getAttribute("href") : null;
      const to = href ? navMenuTarget(href, new URL(window.location.href)) : null;
      if (to) navigate(to);
    };
    document.addEventListener("shopify:navigate", onNavigate);
    return () => document.removeEventListener("shopify:navigate", onNavigate);
  }, [navigate]);
}
