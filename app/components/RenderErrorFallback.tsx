import { Banner, BlockStack, Page } from "@shopify/polaris";
import { useNavigate, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

// A page that failed to render shows this inside the shell; "Try again"
// re-runs the page (its loader and its render) without a full reload.
export function RenderErrorFallback() {
  const { t } = useTranslation("Global");
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Page>
      <BlockStack gap="400">
        <Banner
          tone="critical"
          title={t("renderError.title")}
          action={{
            content: t("renderError.reset"),
            onAction: () => navigate(location.pathname + location.search, { replace: true }),
          }}
        >
          <p>{t("genericMessage")}</p>
        </Banner>
      </BlockStack>
    </Page>
  );
}
