import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { PortalContentView, PortalLayout } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { publicRoute } from "~/door/public-route.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { portalShopTitle } from "~/i18n/page-title";

// The affiliate landing page of a shop: /portal/{handle}/, the custom
// domain's root, or /apps/affiliate on the shop's domain.
export const handle: RouteHandle = {
  i18n: ["Account.Common"],
  portal: true,
  title: portalShopTitle("Account.Common:portal.programName"),
};

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async ({ request, params }) => {
  const { ctx, page, chrome } = await loadPortalPage(request, params.handle, "landing");
  return json({ page, chrome }, { headers: await portalHeaders(ctx) });
});

export default function Landing() {
  const { page, chrome } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Common");
  return (
    <PortalLayout chrome={chrome} page={page}>
      {page?.items.length ? (
        <PortalContentView items={page.items} assetOrigin={chrome.accountOrigin} />
      ) : (
        <BlockStack gap="600">
          <Card>
            <InlineStack gap="600" blockAlign="center" wrap>
              <Box minWidth="260px" maxWidth="520px">
                <BlockStack gap="300">
                  <Text as="h1" variant="heading2xl">
                    {t("landing.heading", { shop: chrome.shopName })}
                  </Text>
                  <Text as="p">{t("landing.text")}</Text>
                  <InlineStack gap="300">
                    <Button url={`${chrome.base}/signup${chrome.query}`} variant="primary" size="large">
                      {t("landing.join")}
                    </Button>
                    <Button url={`${chrome.base}/login${chrome.query}`} size="large">
                      {t("landing.login")}
                    </Button>
                  </InlineStack>
                </BlockStack>
              </Box>
              <img
                className="portal-hero-image"
                src={`${chrome.accountOrigin}/images/portal/hero.svg`}
                alt=""
                width={420}
              />
            </InlineStack>
          </Card>
          <div className="portal-benefits">
            {(["commission", "tracking", "payout"] as const).map((k) => (
              <Card key={k}>
                <BlockStack gap="200">
                  <img className="portal-icon" src={`${chrome.accountOrigin}/images/portal/benefit-${k}.svg`} alt="" />
                  <Text as="h2" variant="headingMd">
                    {t(`landing.benefits.${k}.title`)}
                  </Text>
                  <Text as="p">{t(`landing.benefits.${k}.text`)}</Text>
                </BlockStack>
              </Card>
            ))}
          </div>
        </BlockStack>
      )}
    </PortalLayout>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
