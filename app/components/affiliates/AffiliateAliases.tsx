import { useFetcher } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Modal, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppToast } from "~/components/AppToast";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import { APP_NAMES, type AppFormat } from "~/models/affiliates/app-import-formats";
import { FormErrorBanner } from "../FormErrorBanner";

export interface AliasRow {
  id: string;
  code: string;
  source: string;
}

interface Answer extends Partial<ErrorBody> {
  removedAlias?: string;
}

/**
 * "Codes from your previous app": the affiliate's old link codes an import
 * kept (ADR 048), each removable after a confirmation. Shown only when there
 * are some.
 */
export function AffiliateAliases({
  aliases,
  affiliateName,
  readOnly,
}: {
  aliases: AliasRow[];
  affiliateName: string;
  readOnly: boolean;
}) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const fetcher = useFetcher<Answer>();
  const [removing, setRemoving] = useState<AliasRow | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const seen = useRef<Answer | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || seen.current === fetcher.data) return;
    seen.current = fetcher.data;
    if (fetcher.data.removedAlias) setToast(t("Affiliates:aliases.removed", { code: fetcher.data.removedAlias }));
  }, [fetcher.state, fetcher.data, t]);
  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  // The toast outlives the card (removing the last code empties it) and keeps
  // its place in the tree whether the card shows or not: moved, it would be
  // mounted again and drawn twice while the first one fades out.
  const toastNode = toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null;

  const sourceName = (source: string) =>
    source in APP_NAMES ? APP_NAMES[source as AppFormat] : t("Affiliates:aliases.fromCsv");

  const card =
    aliases.length === 0 && !error ? null : (
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("Affiliates:aliases.title")}
          </Text>
          <Text as="p" tone="subdued" variant="bodySm">
            {t("Affiliates:aliases.help")}
          </Text>
          <FormErrorBanner error={error} />
          <div data-testid="referral-aliases">
            <BlockStack gap="200">
              {aliases.map((alias) => (
                <InlineStack key={alias.id} align="space-between" blockAlign="center" wrap={false} gap="200">
                  <BlockStack gap="050">
                    <Text as="span" fontWeight="semibold" breakWord>
                      {alias.code}
                    </Text>
                    <Text as="span" tone="subdued" variant="bodySm">
                      {sourceName(alias.source)}
                    </Text>
                  </BlockStack>
                  <Button
                    variant="plain"
                    tone="critical"
                    disabled={readOnly || fetcher.state !== "idle"}
                    accessibilityLabel={t("Affiliates:aliases.removeLabel", { code: alias.code })}
                    onClick={() => setRemoving(alias)}
                  >
                    {t("Affiliates:aliases.remove")}
                  </Button>
                </InlineStack>
              ))}
            </BlockStack>
          </div>
        </BlockStack>
        <Modal
          open={removing !== null}
          onClose={() => setRemoving(null)}
          title={t("Affiliates:aliases.removeTitle", { code: removing?.code ?? "" })}
          primaryAction={{
            content: t("Affiliates:aliases.remove"),
            destructive: true,
            onAction: () => {
              if (removing)
                fetcher.submit(
                  { intent: "removeAlias", alias_id: removing.id, code: removing.code },
                  { method: "post" },
                );
              setRemoving(null);
            },
          }}
          secondaryActions={[{ content: t("Affiliates:cancel"), onAction: () => setRemoving(null) }]}
        >
          <Modal.Section>
            <Text as="p">{t("Affiliates:aliases.removeBody", { name: affiliateName })}</Text>
          </Modal.Section>
        </Modal>
      </Card>
    );
  return (
    <>
      {card}
      {toastNode}
    </>
  );
}
