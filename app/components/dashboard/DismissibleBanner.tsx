import { Banner, type BannerProps } from "@shopify/polaris";
import { useEffect, useState, type ReactNode } from "react";
import { browserFlagStore, isFlagExpired, setExpiryFlag } from "~/lib/expiry-flags";

// A banner of the global show-flags (spec section 3): shown until the
// merchant dismisses it, then hidden for `days` (an expiry flag in this
// browser, spec section 4). Rendered only in the browser, so a dismissed
// banner never flashes in the server HTML.

export const BANNER_DISMISS_DAYS = 30;

export function DismissibleBanner({
  flag,
  days = BANNER_DISMISS_DAYS,
  ...props
}: { flag: string; days?: number; children?: ReactNode } & Omit<BannerProps, "onDismiss">) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const store = browserFlagStore();
    setVisible(store ? isFlagExpired(store, flag) : true);
  }, [flag]);
  if (!visible) return null;
  return (
    <div data-banner={flag}>
      <Banner
        {...props}
        onDismiss={() => {
          const store = browserFlagStore();
          if (store) setExpiryFlag(store, flag, days);
          setVisible(false);
        }}
      />
    </div>
  );
}
