import { useParams } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

interface Props {
  email: {
    id: string;
    toAddress: string;
    subject: string;
    text: string;
    html: string | null;
    status: string;
    lastError: string | null;
  };
}

/** One e-mail as sent: the HTML part in a sandboxed frame (no scripts) and the text part. */
export function EmailView({ email }: Props) {
  const { t } = useTranslation(["Mails", "Global"]);
  const { role } = useParams();
  return (
    <Page title={email.subject} backAction={{ url: `/${role}/mails?tab=log` }}>
      <BlockStack gap="400">
        <Card>
          <BlockStack gap="200">
            <InlineStack gap="200">
              <Text as="span" tone="subdued">
                {t("Mails:log.to")}
              </Text>
              <Text as="span">{email.toAddress}</Text>
              <Badge>{t(`Mails:status.${email.status}`, { defaultValue: email.status })}</Badge>
            </InlineStack>
            {email.lastError ? (
              <Text as="p" tone="critical" breakWord>
                {email.lastError}
              </Text>
            ) : null}
          </BlockStack>
        </Card>
        {email.html ? (
          <Card padding="0">
            <iframe
              title={t("Mails:editor.preview")}
              sandbox=""
              srcDoc={email.html}
              style={{ width: "100%", height: 520, border: 0, display: "block" }}
            />
          </Card>
        ) : null}
        <Card>
          <BlockStack gap="200">
            <Text as="h2" variant="headingSm">
              {t("Mails:editor.textPart")}
            </Text>
            <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", margin: 0 }}>{email.text}</pre>
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}
