import { BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { outboundLinkProps } from "~/lib/external-links";
import type { PortalItem, PortalPageContent } from "~/lib/portal-content";

// The public portal pages (landing, sign-up, login) around their content:
// the top bar (shop name, the merchant's links, sign-up and login) and the
// optional left bar the merchant configures.

export interface PortalChrome {
  shopName: string;
  base: string;
  accountOrigin: string;
}

export function PortalLayout({
  chrome,
  page,
  children,
}: {
  chrome: PortalChrome;
  page: PortalPageContent | null;
  children: ReactNode;
}) {
  const { t } = useTranslation("Portal.TopBar");
  const left = page?.leftBar.enabled ? page.leftBar.links.filter((l) => l.label && l.url) : [];
  return (
    <div>
      <header className="portal-topbar">
        <a href={`${chrome.base}/`} style={{ color: "inherit", textDecoration: "none" }}>
          <Text as="span" variant="headingMd">
            {page?.title || t("programName", { shop: chrome.shopName })}
          </Text>
        </a>
        <nav aria-label={t("navigation")}>
          {(page?.topBar.links ?? [])
            .filter((l) => l.label && l.url)
            .map((l) => (
              <a key={l.url + l.label} href={l.url} {...outboundLinkProps(l.url)}>
                {l.label}
              </a>
            ))}
          <a href={`${chrome.base}/login`}>{t("login")}</a>
          <Button url={`${chrome.base}/signup`} variant="primary">
            {t("signup")}
          </Button>
        </nav>
      </header>
      <div className="portal-body">
        {left.length ? (
          <aside className="portal-leftbar" aria-label="Portal.LeftBar">
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
        <main className="portal-main">{children}</main>
      </div>
    </div>
  );
}

function Item({ item, origin }: { item: PortalItem; origin: string }) {
  // App paths (uploads, built-in images) come from the app's origin: through
  // the app proxy the page is on the shop's domain.
  const src = (v: string) => (v.startsWith("/") ? origin + v : v);
  const heading = item.elements.heading;
  const text = item.elements.text;
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
                {item.link.url && item.link.label ? (
                  <div>
                    <Button url={item.link.url} variant="primary" size="large">
                      {item.link.label}
                    </Button>
                  </div>
                ) : null}
              </BlockStack>
            </Box>
            {item.image ? <img className="portal-hero-image" src={src(item.image)} alt="" width={420} /> : null}
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
    case "benefits":
      return (
        <BlockStack gap="300">
          {heading ? (
            <Text as="h2" variant="headingLg">
              {heading}
            </Text>
          ) : null}
          <div className="portal-benefits">
            {item.boxTextBenifit.map((b, i) => (
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
    case "button":
      return item.link.url && item.link.label ? (
        <div>
          <Button url={item.link.url}>{item.link.label}</Button>
        </div>
      ) : null;
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

/** The merchant's content items, in order. */
export function PortalContentView({ items, assetOrigin = "" }: { items: PortalItem[]; assetOrigin?: string }) {
  return (
    <BlockStack gap="600">
      {items.map((item, i) => (
        <Item key={i} item={item} origin={assetOrigin} />
      ))}
    </BlockStack>
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
        {page?.items.length ? <PortalContentView items={page.items} assetOrigin={chrome.accountOrigin} /> : null}
        <div className="portal-narrow">
          <Card>{children}</Card>
        </div>
      </BlockStack>
    </PortalLayout>
  );
}

/** A plain message in the portal's frame (errors, "please log in"). */
export function PortalMessage({ title, text }: { title: string; text: string }) {
  return (
    <div className="portal-body">
      <main className="portal-main portal-narrow">
        <Card>
          <BlockStack gap="200">
            <Text as="h1" variant="headingLg">
              {title}
            </Text>
            <Text as="p">{text}</Text>
          </BlockStack>
        </Card>
      </main>
    </div>
  );
}
