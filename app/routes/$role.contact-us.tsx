import { BlockStack, Button, Card, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { openSupportChat, supportMailto } from "~/lib/support";
import { areaPage } from "~/door/merchant-route.server";
import { useShell } from "./$role";
import type { RouteHandle } from "~/i18n/route-handle";

export const loader = /* @__PURE__ */ areaPage("any");
export const handle: RouteHandle = { i18n: ["ContactUs"], title: "ContactUs:title" };

export default function ContactUs() {
  const { t } = useTranslation("ContactUs");
  const { shop, supportEmail, productName } = useShell();
  const mailto = supportMailto({ email: supportEmail, productName, topic: t("topic"), shopUrl: shop.url });
  return (
    <Page title={t("title")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{t("intro")}</Text>
          <Text as="p" tone="subdued">
            {t("emailLabel", { email: supportEmail })}
          </Text>
          {/* The live chat when one is present and visible, else the prefilled e-mail (spec section 8). */}
          <div data-mailto={mailto}>
            <Button
              variant="primary"
              onClick={() => {
                if (!openSupportChat()) window.location.href = mailto;
              }}
            >
              {t("emailButton")}
            </Button>
          </div>
        </BlockStack>
      </Card>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
