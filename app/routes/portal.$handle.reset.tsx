import type { RouteHandle } from "~/i18n/route-handle";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, FormLayout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormField } from "~/components/portal/FormField";
import { PortalFormPage } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { publicRoute } from "~/door/public-route.server";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import {
  isResetTokenValid,
  resetAffiliatePassword,
  resetSchema,
} from "~/models/affiliate-account/password-reset.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";

export const handle: RouteHandle = { i18n: ["Account.Common"], portal: true, title: "Account.Common:reset.title" };
// A missing or malformed token is not an error of the request: the page says
// the link is invalid and offers a new one.
const query = z.object({ token: z.string().catch("") });

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page", query }, async ({ request, params, query }) => {
  const { ctx, chrome, db } = await loadPortalPage(request, params.handle, "login");
  const valid = await isResetTokenValid(db, query.token);
  return json(
    { chrome, token: valid ? query.token : "", valid },
    { status: valid ? 200 : 400, headers: await portalHeaders(ctx) },
  );
});

export const action = /* @__PURE__ */ publicRoute(
  { scheme: "page", body: resetSchema },
  async ({ request, params, body }) => {
    const { ctx, db } = await loadPortalPage(request, params.handle, "login");
    await resetAffiliatePassword(db, body.token, body.password);
    return redirect(`${ctx.base}/login?reset=1`);
  },
);

export default function Reset() {
  const { chrome, token, valid } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData>();
  const { t } = useTranslation("Account.Common");
  const error = useTranslatedError(data?.error);
  const fields = error?.fields ?? {};
  return (
    <PortalFormPage chrome={chrome} page={null}>
      <BlockStack gap="400">
        <Text as="h1" variant="headingLg">
          {t("reset.title")}
        </Text>
        {!valid ? (
          <>
            <Banner tone="critical">
              <p data-testid="reset-invalid">{t("reset.invalid")}</p>
            </Banner>
            <a href={`${chrome.base}/forgot${chrome.query}`}>{t("reset.askAgain")}</a>
          </>
        ) : (
          <form method="post" action={`${chrome.base}/reset${chrome.query}`}>
            <BlockStack gap="400">
              {error && !error.fields ? (
                <Banner tone="critical">
                  <p>{error.message}</p>
                </Banner>
              ) : null}
              <input type="hidden" name="token" value={token} />
              <FormLayout>
                <FormField
                  name="password"
                  type="password"
                  label={t("reset.password")}
                  error={fields.password}
                  autoComplete="new-password"
                />
                <FormField
                  name="confirm"
                  type="password"
                  label={t("reset.confirm")}
                  error={fields.confirm}
                  autoComplete="new-password"
                />
                <Button submit variant="primary" fullWidth>
                  {t("reset.submit")}
                </Button>
              </FormLayout>
            </BlockStack>
          </form>
        )}
      </BlockStack>
    </PortalFormPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
