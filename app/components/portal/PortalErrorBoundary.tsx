import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { BlockStack, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

/** Errors of portal and account pages: a plain message, no admin links. */
export function PortalErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("Account.Common");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const bad = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500;
  return (
    <div className="portal-body">
      <main className="portal-main portal-narrow">
        <Card>
          <BlockStack gap="200">
            <Text as="h1" variant="headingLg">
              {notFound ? t("errors.notFoundTitle") : bad ? t("errors.badRequestTitle") : t("errors.genericTitle")}
            </Text>
            <Text as="p">{notFound ? t("errors.notFound") : bad ? t("errors.badRequest") : t("errors.generic")}</Text>
          </BlockStack>
        </Card>
      </main>
    </div>
  );
}
