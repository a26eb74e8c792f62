import { Banner, BlockStack, Text, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

/** A signing secret, shown once (after creation or rotation): the app never shows it again. */
export function WebhookSecretBanner({ secret, onDismiss }: { secret: string; onDismiss: () => void }) {
  const { t } = useTranslation("Settings.Integrations");
  return (
    <Banner tone="warning" title={t("secret.title")} onDismiss={onDismiss}>
      <BlockStack gap="200">
        <Text as="p">{t("secret.once")}</Text>
        <div data-webhook-secret>
          <TextField
            label={t("secret.label")}
            value={secret}
            readOnly
            autoComplete="off"
            monospaced
            selectTextOnFocus
            onChange={() => undefined}
          />
        </div>
      </BlockStack>
    </Banner>
  );
}
