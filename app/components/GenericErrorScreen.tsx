import { BlockStack, Button, Card, InlineStack, Link, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { openSupportChat, reloadTarget, supportMailto } from "../lib/support";

export interface ErrorScreenContext {
  role: "admin" | "staff" | "affiliate";
  host?: string | null;
  shopUrl?: string | null;
  supportEmail: string;
  productName: string;
}

// Spec section 2/8: the generic crash screen.
export function GenericErrorScreen({ context }: { context: ErrorScreenContext }) {
  const { t } = useTranslation("Global");
  const mailto = supportMailto({
    email: context.supportEmail,
    productName: context.productName,
    topic: t("error.supportTopic"),
    shopUrl: context.shopUrl,
  });
  function reload() {
    const target = reloadTarget({ currentHref: window.location.href, ...context });
    if (target === window.location.href) window.location.reload();
    else window.location.assign(target);
  }
  return (
    <Page narrowWidth>
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("error.title")}
          </Text>
          <Text as="p">{t("error.advice")}</Text>
          <InlineStack gap="300" blockAlign="center">
            <Button variant="primary" onClick={reload}>
              {t("error.reload")}
            </Button>
            <Link
              url={mailto}
              onClick={() => {
                // The chat widget, when present and visible, replaces the e-mail.
                if (openSupportChat()) return;
              }}
            >
              {t("error.contact")}
            </Link>
          </InlineStack>
        </BlockStack>
      </Card>
    </Page>
  );
}
