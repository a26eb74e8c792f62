import { json, redirect, type HeadersFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, FormLayout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormField } from "~/components/portal/FormField";
import { PortalFormPage } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { publicRoute } from "~/door/public-route.server";
import { safeRedirectPath } from "~/lib/auth-steps";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import { rememberPortal, startAffiliateSession } from "~/models/affiliate-account/affiliate-session.server";
import { affiliateLoginSchema, loginAffiliate } from "~/models/affiliate-account/login.server";
import { issueHandoverToken } from "~/models/affiliate-account/password-reset.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { portalShopTitle } from "~/i18n/page-title";

export const handle: RouteHandle = {
  i18n: ["Account.Common"],
  portal: true,
  title: portalShopTitle("Account.Common:login.title"),
};
// Retry-After of a throttled login reaches the browser.
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;

// Where to go after the login (the account page that sent the visitor here);
// one longer than the form takes is dropped, and the account home is used.
const query = z.object({
  redirectTo: z.string().max(2048).catch(""),
  reset: z.literal("1").optional().catch(undefined),
});

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page", query }, async ({ request, params, query }) => {
  const { ctx, page, chrome } = await loadPortalPage(request, params.handle, "login");
  return json(
    { page, chrome, redirectTo: query.redirectTo, reset: query.reset === "1" },
    { headers: await portalHeaders(ctx) },
  );
});

export const action = /* @__PURE__ */ publicRoute(
  { scheme: "page", body: affiliateLoginSchema },
  async ({ request, params, body }) => {
    const { ctx, db } = await loadPortalPage(request, params.handle, "login");
    const affiliateId = await loginAffiliate(db, body, clientAddress(request));
    if (ctx.way === "proxy") {
      // Shopify's proxy passes no cookies: hand over to the account area's own domain.
      const token = await issueHandoverToken(affiliateId);
      return redirect(`${ctx.accountOrigin}/account/handover?token=${token}`);
    }
    const target = safeRedirectPath(body.redirectTo ?? null);
    const to = target && (target === "/account" || target.startsWith("/account/")) ? target : "/account";
    const headers = new Headers({ "Set-Cookie": await startAffiliateSession(affiliateId, ctx.shop.id) });
    if (ctx.way === "app") headers.append("Set-Cookie", await rememberPortal(ctx.handle));
    return redirect(to, { headers });
  },
);

export default function Login() {
  const { page, chrome, redirectTo, reset } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData>();
  const { t } = useTranslation("Account.Common");
  const error = useTranslatedError(data?.error);
  const fields = error?.fields ?? {};
  return (
    <PortalFormPage chrome={chrome} page={page}>
      <form method="post" action={`${chrome.base}/login${chrome.query}`}>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("login.title", { shop: chrome.shopName })}
          </Text>
          {reset ? (
            <Banner tone="success">
              <p>{t("reset.done")}</p>
            </Banner>
          ) : null}
          {error && !error.fields ? (
            <Banner tone="critical">
              <p data-testid="login-error">{error.message}</p>
            </Banner>
          ) : null}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormLayout>
            <FormField
              name="email"
              type="email"
              label={t("form.email")}
              value={data?.values?.email}
              error={fields.email}
              autoComplete="email"
            />
            <FormField
              name="password"
              type="password"
              label={t("form.password")}
              error={fields.password}
              autoComplete="current-password"
            />
            <Button submit variant="primary" fullWidth>
              {t("login.submit")}
            </Button>
          </FormLayout>
          <Text as="p" tone="subdued">
            <a href={`${chrome.base}/forgot${chrome.query}`}>{t("login.forgot")}</a> · {t("login.noAccount")}{" "}
            <a href={`${chrome.base}/signup${chrome.query}`}>{t("login.signupLink")}</a>
          </Text>
        </BlockStack>
      </form>
    </PortalFormPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
