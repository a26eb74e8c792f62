import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, FormLayout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { FormField } from "~/components/portal/FormField";
import { PortalFormPage } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { publicRoute } from "~/door/public-route.server";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import { forgotSchema, requestPasswordReset } from "~/models/affiliate-account/password-reset.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import { portalActionHeaders } from "~/models/portal/portal-headers.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Account.Common"], portal: true, title: "Account.Common:forgot.title" };
export const headers = portalActionHeaders;
export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async ({ request, params }) => {
  const { ctx, chrome } = await loadPortalPage(request, params.handle, "login");
  return json({ chrome }, { headers: await portalHeaders(ctx) });
});

export const action = /* @__PURE__ */ publicRoute(
  { scheme: "page", body: forgotSchema },
  async ({ request, params, body }) => {
    const { ctx } = await loadPortalPage(request, params.handle, "login");
    // The link's host comes from the configuration or the verified custom
    // domain (requestPasswordReset builds it), never from the request.
    await requestPasswordReset(ctx, body.email, clientAddress(request));
    return { done: true };
  },
);

export default function Forgot() {
  const { chrome } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData & { done?: boolean }>();
  const { t } = useTranslation("Account.Common");
  const error = useTranslatedError(data?.error);
  return (
    <PortalFormPage chrome={chrome} page={null}>
      <form method="post" action={`${chrome.base}/forgot${chrome.query}`}>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("forgot.title")}
          </Text>
          {data?.done ? (
            <Banner tone="success">
              <p data-testid="forgot-done">{t("forgot.sent")}</p>
            </Banner>
          ) : (
            <>
              {error && !error.fields ? (
                <Banner tone="critical">
                  <p>{error.message}</p>
                </Banner>
              ) : null}
              <Text as="p">{t("forgot.text")}</Text>
              <FormLayout>
                <FormField
                  name="email"
                  type="email"
                  label={t("form.email")}
                  value={data?.values?.email}
                  error={error?.fields?.email}
                  autoComplete="email"
                />
                <Button submit variant="primary" fullWidth>
                  {t("forgot.submit")}
                </Button>
              </FormLayout>
            </>
          )}
          <a href={`${chrome.base}/login${chrome.query}`}>{t("forgot.back")}</a>
        </BlockStack>
      </form>
    </PortalFormPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
