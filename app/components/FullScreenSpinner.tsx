import { Spinner } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

export function FullScreenSpinner() {
  const { t } = useTranslation("Global");
  return (
    <div className="app-fullscreen-spinner" role="status" aria-live="polite" data-testid="page-loading">
      <Spinner accessibilityLabel={t("loading")} size="large" />
    </div>
  );
}
