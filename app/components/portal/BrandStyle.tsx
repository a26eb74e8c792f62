import { brandingCss, type Branding } from "~/models/settings/branding";

// The shop's branding (Settings > Branding) on a portal or account page: the
// style overrides and the favicon. The CSS comes only from validated values
// (brandingCss), so it is written into the style element unescaped.
export function BrandStyle({ branding, assetOrigin = "" }: { branding: Branding; assetOrigin?: string }) {
  const css = brandingCss(branding);
  return (
    <>
      {css ? <style data-brand dangerouslySetInnerHTML={{ __html: css }} /> : null}
      {branding.favicon ? <link rel="icon" href={assetOrigin + branding.favicon} /> : null}
    </>
  );
}

export function BrandLogo({
  branding,
  assetOrigin = "",
  alt,
}: {
  branding: Branding;
  assetOrigin?: string;
  alt: string;
}) {
  if (!branding.logo) return null;
  return <img className="portal-logo" src={assetOrigin + branding.logo} alt={alt} data-testid="portal-logo" />;
}
