import { BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { languageByTag, PORTAL_LANGUAGES } from "~/i18n/language-table";
import { outboundLinkProps } from "~/lib/external-links";
import type { Branding } from "~/models/settings/branding";
import { BrandLogo, BrandStyle } from "./BrandStyle";
import {
  BUILT_IN_IMAGE_PREFIX,
  callToActionIndex,
  emptyPage,
  withSignupCallToAction,
  type PortalItem,
  type PortalPageContent,
} from "~/lib/portal-content";

// The public portal pages (landing, sign-up, login) around their content:
// the top bar (shop name, the merchant's links, sign-up and login) and the
// optional left bar the merchant configures.

export interface PortalChrome {
  shopName: string;
  /** Settings > Branding (absent in the admin's preview: the admin keeps its own look). */
  branding?: Branding;
  base: string;
  accountOrigin: string;
  /** The language the visitor picked on the page (?lang=), if any. */
  lang?: string | null;
  /** "?lang=xx" for the portal's own links and forms, or "". */
  query?: string;
}

export function PortalLayout({
  chrome,
  page,
  children,
  preview = false,
}: {
  chrome: PortalChrome;
  page: PortalPageContent | null;
  children: ReactNode;
  /** In the admin's portal editor: no language menu (it would navigate the admin). */
  preview?: boolean;
}) {
  // Account.* and Global only: these pages are in every affiliate language.
  const { t } = useTranslation("Account.Common");
  const { search } = useLocation();
  const keep = chrome.query ?? "";
  const left = page?.leftBar.enabled ? page.leftBar.links.filter((l) => l.label && l.url) : [];
  const programName = t("portal.programName", { shop: chrome.shopName });
  return (
    <div className="portal-frame">
      {chrome.branding && !preview ? (
        <BrandStyle branding={chrome.branding} assetOrigin={chrome.accountOrigin} />
      ) : null}
      <header className="portal-topbar">
        <a
          href={`${chrome.base}/${keep}`}
          className="portal-brand"
          style={{ color: "inherit", textDecoration: "none" }}
        >
          {chrome.branding ? (
            <BrandLogo branding={chrome.branding} assetOrigin={chrome.accountOrigin} alt={chrome.shopName} />
          ) : null}
          <span className="portal-brand-name" title={page?.title || programName}>
            <Text as="span" variant="headingMd">
              {page?.title || programName}
            </Text>
          </span>
        </a>
        <nav aria-label={programName}>
          {(page?.topBar.links ?? [])
            .filter((l) => l.label && l.url)
            .map((l) => (
              <a key={l.url + l.label} href={l.url} {...outboundLinkProps(l.url)}>
                {l.label}
              </a>
            ))}
          <a href={`${chrome.base}/login${keep}`}>{t("login.submit")}</a>
          <Button url={`${chrome.base}/signup${keep}`} variant="primary">
            {t("signup.submit")}
          </Button>
          {preview ? null : <LanguagePicker params={new URLSearchParams(search)} />}
        </nav>
      </header>
      <div className="portal-body">
        {left.length ? (
          <aside className="portal-leftbar" aria-label={t("nav.links")}>
            <ul>
              {left.map((l) => (
                <li key={l.url + l.label}>
                  <a href={l.url} {...outboundLinkProps(l.url)}>
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </aside>
        ) : null}
        {/* The admin's preview sits inside the admin's own <main>. */}
        {preview ? <div className="portal-main">{children}</div> : <main className="portal-main">{children}</main>}
      </div>
    </div>
  );
}

/**
 * The language menu of the public portal pages: a plain GET form (these
 * pages run no script) that reloads the page with ?lang=, keeping the rest
 * of the query (a recruit link's ?ref=).
 */
function LanguagePicker({ params }: { params: URLSearchParams }) {
  const { t, i18n } = useTranslation("Account.Common");
  const current = languageByTag(i18n.language)?.code ?? "en";
  return (
    <form method="get" className="portal-language">
      {[...params.entries()]
        .filter(([name]) => name !== "lang")
        .map(([name, value]) => (
          <input key={name + value} type="hidden" name={name} value={value} />
        ))}
      <label htmlFor="portal-language">{t("portal.language")}</label>
      <select id="portal-language" name="lang" defaultValue={current}>
        {PORTAL_LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.tag} dir={l.dir}>
            {l.name}
          </option>
        ))}
      </select>
      <button type="submit" className="portal-language-apply">
        {t("portal.apply")}
      </button>
    </form>
  );
}

/** The landing page's call to action: where Join and Log in lead. */
export interface CallToAction {
  signup: string;
  login: string;
}

const BUILT_IN_BENEFITS = ["commission", "tracking", "payout"] as const;

function Item({
  item,
  origin,
  shopName,
  cta,
}: {
  item: PortalItem;
  origin: string;
  shopName: string;
  cta?: CallToAction;
}) {
  const { t } = useTranslation("Account.Common");
  // App paths (uploads, built-in images) come from the app's origin: through
  // the app proxy the page is on the shop's domain.
  const src = (v: string) => (v.startsWith("/") ? origin + v : v);
  // A built-in section shows the built-in text where the merchant left a field empty.
  const builtIn = item.builtIn && item.type === "hero";
  const heading = item.elements.heading || (builtIn ? t("landing.heading", { shop: shopName }) : "");
  const text = item.elements.text || (builtIn ? t("landing.text") : "");
  const image = item.image || (builtIn ? `${BUILT_IN_IMAGE_PREFIX}hero.svg` : "");
  const extraLink =
    item.link.url && item.link.label ? (
      <Button url={item.link.url} variant={cta ? undefined : "primary"} size="large">
        {item.link.label}
      </Button>
    ) : null;
  switch (item.type) {
    case "hero":
      return (
        <Card>
          <InlineStack gap="600" blockAlign="center" wrap>
            <Box minWidth="260px" maxWidth="520px">
              <BlockStack gap="300">
                {heading ? (
                  <Text as="h1" variant="heading2xl">
                    {heading}
                  </Text>
                ) : null}
                {text ? <Text as="p">{text}</Text> : null}
                {cta || extraLink ? (
                  <InlineStack gap="300">
                    {cta ? (
                      <>
                        <Button url={cta.signup} variant="primary" size="large">
                          {t("landing.join")}
                        </Button>
                        <Button url={cta.login} size="large">
                          {t("landing.login")}
                        </Button>
                      </>
                    ) : null}
                    {extraLink}
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Box>
            {image ? <img className="portal-hero-image" src={src(image)} alt="" width={420} /> : null}
          </InlineStack>
        </Card>
      );
    case "image":
      return (
        <InlineStack gap="400" wrap>
          {[item.image, item.image_1, item.image_2].filter(Boolean).map((v) => (
            <img key={v} className="portal-image" src={src(v)} alt={heading} width={360} />
          ))}
        </InlineStack>
      );
    case "benefits": {
      const boxes =
        item.builtIn && !item.boxTextBenifit.length
          ? BUILT_IN_BENEFITS.map((k) => ({
              icon: `${BUILT_IN_IMAGE_PREFIX}benefit-${k}.svg`,
              title: t(`landing.benefits.${k}.title`),
              text: t(`landing.benefits.${k}.text`),
            }))
          : item.boxTextBenifit;
      return (
        <BlockStack gap="300">
          {heading ? (
            <Text as="h2" variant="headingLg">
              {heading}
            </Text>
          ) : null}
          <div className="portal-benefits">
            {boxes.map((b, i) => (
              <Card key={i}>
                <BlockStack gap="200">
                  {b.icon ? <img className="portal-icon" src={src(b.icon)} alt="" /> : null}
                  <Text as="h3" variant="headingMd">
                    {b.title}
                  </Text>
                  <Text as="p">{b.text}</Text>
                </BlockStack>
              </Card>
            ))}
          </div>
        </BlockStack>
      );
    }
    case "button":
      return extraLink ? <div>{extraLink}</div> : null;
    default:
      return (
        <Card>
          <BlockStack gap="200">
            {item.icon ? <img className="portal-icon" src={src(item.icon)} alt="" /> : null}
            {heading ? (
              <Text as="h2" variant="headingLg">
                {heading}
              </Text>
            ) : null}
            {text ? <Text as="p">{text}</Text> : null}
          </BlockStack>
        </Card>
      );
  }
}

/** The merchant's content items, in order (hidden ones left out). */
export function PortalContentView({
  items,
  assetOrigin = "",
  shopName = "",
  cta,
}: {
  items: PortalItem[];
  assetOrigin?: string;
  shopName?: string;
  /** On the landing page: the Join and Log in buttons of the first hero. */
  cta?: CallToAction;
}) {
  const ctaAt = cta ? callToActionIndex(items) : -1;
  return (
    <BlockStack gap="600">
      {items.map((item, i) =>
        item.hidden && i !== ctaAt ? null : (
          <div key={i} data-section={i}>
            <Item item={item} origin={assetOrigin} shopName={shopName} cta={i === ctaAt ? cta : undefined} />
          </div>
        ),
      )}
    </BlockStack>
  );
}

/**
 * The landing page's body, for the public page and the editor's preview
 * alike: the published (or draft) sections, with the built-in ones when
 * there are none, and the Join button always there.
 */
export function PortalLandingView({ page, chrome }: { page: PortalPageContent | null; chrome: PortalChrome }) {
  const shown = withSignupCallToAction(page ?? emptyPage());
  return (
    <PortalContentView
      items={shown.items}
      assetOrigin={chrome.accountOrigin}
      shopName={chrome.shopName}
      cta={{ signup: `${chrome.base}/signup${chrome.query ?? ""}`, login: `${chrome.base}/login${chrome.query ?? ""}` }}
    />
  );
}

/** A portal form page (sign-up, login, reset): the merchant's items, then the form in a narrow card. */
export function PortalFormPage({
  chrome,
  page,
  children,
}: {
  chrome: PortalChrome;
  page: PortalPageContent | null;
  children: ReactNode;
}) {
  return (
    <PortalLayout chrome={chrome} page={page}>
      <BlockStack gap="600">
        {page?.items.length ? (
          <PortalContentView items={page.items} assetOrigin={chrome.accountOrigin} shopName={chrome.shopName} />
        ) : null}
        <div className="portal-narrow">
          <Card>{children}</Card>
        </div>
      </BlockStack>
    </PortalLayout>
  );
}

/** A plain message in the portal's frame (errors, "please log in"). */
/**
 * A message instead of a page; `inLayout` when the account layout around it
 * already has the page's <main>.
 */
export function PortalMessage({ title, text, inLayout = false }: { title: string; text: string; inLayout?: boolean }) {
  const card = (
    <Card>
      <BlockStack gap="200">
        <Text as="h1" variant="headingLg">
          {title}
        </Text>
        <Text as="p">{text}</Text>
      </BlockStack>
    </Card>
  );
  if (inLayout) return card;
  return (
    <div className="portal-body">
      <main className="portal-main portal-narrow">{card}</main>
    </div>
  );
}
