import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { affiliateLink } from "~/lib/affiliate-links";
import { buildLink, linkBuilderQuery, pickableProducts } from "~/models/affiliate-account/link-builder.server";
import { linkDiscount } from "~/models/affiliate-account/link-discount.server";
import { defaultLandingPath } from "~/models/settings/promote-link";
import { getPromoteLink } from "~/models/settings/promote-link.server";
import { buildRedirectUrl, shopHost } from "~/models/tracking/redirect-url";
import { getShareSettings } from "~/models/marketings/marketings-settings.server";
import { shareIntents, SHARE_NETWORKS } from "~/models/marketings/share-settings";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: ["Account.Products", "Account.Common", "Account.Creatives"],
  portal: true,
  title: "Account.Common:nav.links",
};

// The link builder's form (models/affiliate-account/link-builder.server.ts);
// an address that is not on the shop's store is answered on the page (see
// `invalid`), not as an error.
export const loader = /* @__PURE__ */ affiliateRoute(
  { query: linkBuilderQuery },
  async ({ db, affiliate, shop, appUrl, pagesUrl, query }) => {
    const host = shopHost(shop);
    // Settings > Promote link: landing page, UTM parameters and which link comes first.
    const promote = await getPromoteLink(db);
    const landing = defaultLandingPath(promote);
    const shortLink = affiliateLink(appUrl, affiliate.referralCode, shop.domain, landing);
    const storeLink = buildRedirectUrl(host, landing, shop.referralParam, affiliate.referralCode, null);
    const storeFirst = promote.link_format === "store";
    // Settings > Marketings: the merchant's share texts and images.
    const share = await getShareSettings(db);
    const referralLink = storeFirst ? storeLink : shortLink;
    // The short link applies the affiliate's discount (when the shop says so and Shopify has the code).
    const discount = storeFirst ? null : await linkDiscount(db, affiliate.id, promote);
    return {
      share: {
        intents: shareIntents(share, { link: referralLink, code: affiliate.referralCode }),
        images: share.images,
      },
      referralLink,
      // The store link is then the referral link itself: not shown twice.
      storeLink: storeFirst ? null : storeLink,
      autoApply: discount?.code ? { code: discount.showCodes ? discount.code : null } : null,
      recruitLink: `${pagesUrl}/signup?ref=${encodeURIComponent(affiliate.referralCode)}`,
      asked: { page: query.page, product: query.product ?? "", subId: query.sub_id },
      products: await pickableProducts(db),
      built: await buildLink(db, { shop, code: affiliate.referralCode, appUrl, promote }, query),
      host,
    };
  },
);

// Brand names, the same in every language.
const NETWORK_NAMES = { x: "X", facebook: "Facebook", whatsapp: "WhatsApp" } as const;

export default function AccountLinks() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Products");
  const copy = { copyLabel: t("Account.Common:copy"), copiedLabel: t("Account.Common:copied") };
  const [product, setProduct] = useState(d.asked.product);
  const [page, setPage] = useState(d.asked.page);
  const [subId, setSubId] = useState(d.asked.subId);
  // The QR code is made on the server from the same form values, checked again there.
  const qrBase = `/account/links/qr?${new URLSearchParams({
    page: d.asked.product ? "" : d.asked.page,
    product: d.asked.product,
    sub_id: d.asked.subId,
  }).toString()}`;
  return (
    <AccountPage title={t("links.title")}>
      <Card>
        <BlockStack gap="300">
          <CopyField label={t("links.referral")} value={d.referralLink} testId="referral-link" {...copy} />
          {d.autoApply ? (
            <Banner tone="success">
              <BlockStack gap="200">
                <Text as="p" id="auto-apply">
                  {t("Account.Common:coupons.autoApply")}
                </Text>
                {d.autoApply.code ? (
                  <CopyField
                    label={t("Account.Common:coupons.code")}
                    value={d.autoApply.code}
                    testId="auto-apply-code"
                    {...copy}
                  />
                ) : null}
              </BlockStack>
            </Banner>
          ) : null}
          {d.storeLink ? (
            <CopyField label={t("links.store")} value={d.storeLink} testId="store-link" {...copy} />
          ) : null}
          <CopyField label={t("links.recruit")} value={d.recruitLink} {...copy} />
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("links.share.title")}
          </Text>
          <InlineStack gap="200" wrap>
            {SHARE_NETWORKS.map((network) => (
              <Button
                key={network}
                url={d.share.intents[network]}
                external={network !== "email"}
                id={`share-${network}`}
              >
                {network === "email"
                  ? t("Account.Common:form.email")
                  : t("links.share.on", { network: NETWORK_NAMES[network] })}
              </Button>
            ))}
          </InlineStack>
          {d.share.images.length ? (
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                {t("links.share.images")}
              </Text>
              <InlineStack gap="300" wrap>
                {d.share.images.map((url) => (
                  <BlockStack key={url} gap="100" inlineAlign="center">
                    <img
                      src={url}
                      alt=""
                      height={96}
                      data-testid="share-image"
                      style={{ display: "block", borderRadius: 8 }}
                    />
                    <a href={url} download>
                      {t("Account.Creatives:download")}
                    </a>
                  </BlockStack>
                ))}
              </InlineStack>
            </BlockStack>
          ) : null}
        </BlockStack>
      </Card>
      <Card>
        <form method="get" action="/account/links">
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("links.builder")}
            </Text>
            <Text as="p" tone="subdued">
              {t("links.builderHelp", { host: d.host })}
            </Text>
            <Select
              label={t("links.product")}
              name="product"
              options={[
                { label: t("links.anyPage"), value: "" },
                ...d.products.map((p) => ({ label: p.title, value: p.handle })),
              ]}
              value={product}
              onChange={setProduct}
            />
            {product ? null : (
              <TextField
                label={t("links.page")}
                name="page"
                value={page}
                onChange={setPage}
                autoComplete="off"
                placeholder={`https://${d.host}/collections/...`}
              />
            )}
            <TextField
              label={t("links.subId")}
              name="sub_id"
              value={subId}
              onChange={setSubId}
              autoComplete="off"
              maxLength={64}
              helpText={t("links.subIdHelp")}
            />
            <InlineStack>
              <Button submit variant="primary">
                {t("links.create")}
              </Button>
            </InlineStack>
            {d.built.invalid ? (
              <Banner tone="critical">
                <p data-testid="builder-error">{t("links.invalid", { host: d.host })}</p>
              </Banner>
            ) : null}
            {d.built.link ? (
              <BlockStack gap="300">
                <CopyField label={t("links.yourLink")} value={d.built.link} testId="built-link" {...copy} />
                <InlineStack gap="400" blockAlign="center" wrap>
                  <img
                    src={`${qrBase}&format=svg`}
                    alt={t("links.qrAlt")}
                    width={160}
                    height={160}
                    data-testid="qr-image"
                    style={{ display: "block", background: "#fff" }}
                  />
                  <BlockStack gap="200">
                    <Text as="p" tone="subdued">
                      {t("links.qrHelp")}
                    </Text>
                    <a href={`${qrBase}&format=svg&download=1`} download="qr-code.svg" data-testid="qr-svg">
                      {t("links.qrSvg")}
                    </a>
                    <a href={`${qrBase}&format=png&download=1`} download="qr-code.png" data-testid="qr-png">
                      {t("links.qrPng")}
                    </a>
                  </BlockStack>
                </InlineStack>
              </BlockStack>
            ) : null}
          </BlockStack>
        </form>
      </Card>
    </AccountPage>
  );
}
