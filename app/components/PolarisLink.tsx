import { Link } from "@remix-run/react";
import type { LinkLikeComponentProps } from "@shopify/polaris/build/ts/src/utilities/link";
import { forwardRef } from "react";

// Polaris renders every link through this: app links use Remix navigation
// (so pages load lazily behind the spinner); external links open in a new tab.
export function isExternalUrl(url: string): boolean {
  return /^(https?:)?\/\//i.test(url) || url.startsWith("mailto:");
}

export const PolarisLink = forwardRef<HTMLAnchorElement, LinkLikeComponentProps>(function PolarisLink(
  { url, external, children, ...rest },
  ref,
) {
  if (external || isExternalUrl(url)) {
    return (
      <a ref={ref} href={url} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <Link ref={ref} to={url} prefetch="intent" {...rest}>
      {children}
    </Link>
  );
});
