import { Link } from "@remix-run/react";
import type { LinkLikeComponentProps } from "@shopify/polaris/build/ts/src/utilities/link";
import { forwardRef } from "react";
import { isExternalUrl, isHandoverUrl, outboundLinkProps } from "~/lib/external-links";

// Polaris renders every link through this: app links use Remix navigation
// (so pages load lazily behind the spinner); links leaving the app open in a
// new tab. Polaris passes `target` (usually undefined) along with the other
// props, so ours are applied after the spread, not before it.
export const PolarisLink = forwardRef<HTMLAnchorElement, LinkLikeComponentProps>(function PolarisLink(
  { url, external, target, children, ...rest },
  ref,
) {
  if (external || isExternalUrl(url) || isHandoverUrl(url)) {
    return (
      <a {...rest} ref={ref} href={url} {...outboundLinkProps(url, external)}>
        {children}
      </a>
    );
  }
  return (
    // discover="none": without lazy route discovery (remix.config.js) the
    // data-discover attribute does nothing but add bytes to every link.
    <Link {...rest} ref={ref} to={url} target={target} prefetch="intent" discover="none">
      {children}
    </Link>
  );
});
