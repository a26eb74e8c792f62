import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormField } from "~/components/portal/FormField";
import { PortalFormPage, PortalLayout } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { checkBody } from "~/door/door.server";
import { publicRoute } from "~/door/public-route.server";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import { emptyPage } from "~/lib/portal-content";
import { signupSchema, signUpAffiliate } from "~/models/affiliate-account/signup.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import { portalActionHeaders } from "~/models/portal/portal-headers.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { portalShopTitle } from "~/i18n/page-title";

export const handle: RouteHandle = {
  i18n: ["Account.Common"],
  portal: true,
  title: portalShopTitle("Account.Common:signup.title"),
};
export const headers = portalActionHeaders;
// The recruit link's code (?ref=CODE), carried in the form.
const query = z.object({
  ref: z
    .string()
    .catch("")
    .transform((v) => v.slice(0, 64)),
  via: z.enum(["marketplace"]).optional().catch(undefined),
});

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page", query }, async ({ request, params, query }) => {
  const { ctx, page, chrome } = await loadPortalPage(request, params.handle, "signup");
  return json(
    { page, chrome, form: (page ?? emptyPage()).form, ref: query.ref, via: query.via ?? "" },
    { headers: await portalHeaders(ctx) },
  );
});

// The form's fields are the merchant's choice (optional fields, own
// questions), so the door reads the form as it is and the shop's schema
// checks it once the shop's form settings are loaded.
const anyForm = z.record(z.string(), z.unknown());

export const action = /* @__PURE__ */ publicRoute(
  { scheme: "page", body: anyForm },
  async ({ request, params, body }) => {
    const { page, db } = await loadPortalPage(request, params.handle, "signup");
    const form = (page ?? emptyPage()).form;
    const input = checkBody(signupSchema(form), { kind: "form", value: body });
    const result = await signUpAffiliate(db, form, input, clientAddress(request));
    return { done: true, status: result.status };
  },
);

export default function Signup() {
  const { page, chrome, form, ref, via } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData & { done?: boolean; status?: string }>();
  const { t } = useTranslation("Account.Common");
  const error = useTranslatedError(data?.error);
  const fields = error?.fields ?? {};
  const v = data?.values ?? {};
  if (data?.done) {
    return (
      <PortalLayout chrome={chrome} page={page}>
        <div className="portal-narrow">
          <Card>
            <BlockStack gap="300">
              <Text as="h1" variant="headingLg">
                {t("signup.doneTitle")}
              </Text>
              <p data-testid="signup-done">
                {data.status === "approved" ? t("signup.doneApproved") : t("signup.donePending")}
              </p>
              <Button url={`${chrome.base}/login${chrome.query}`} variant="primary">
                {t("signup.goToLogin")}
              </Button>
            </BlockStack>
          </Card>
        </div>
      </PortalLayout>
    );
  }
  const mode = (m: string) => m === "required";
  return (
    <PortalFormPage chrome={chrome} page={page}>
      <form method="post" action={`${chrome.base}/signup${chrome.query}`}>
        {chrome.lang ? <input type="hidden" name="language" value={chrome.lang} /> : null}
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("signup.title", { shop: chrome.shopName })}
          </Text>
          {error ? (
            <Banner tone="critical">
              <p data-testid="signup-error">{error.fields ? t("form.fixFields") : error.message}</p>
            </Banner>
          ) : null}
          <input type="hidden" name="ref" value={v.ref ?? ref} />
          {via || v.via ? <input type="hidden" name="via" value={v.via ?? via} /> : null}
          <FormLayout>
            <FormLayout.Group>
              <FormField
                name="firstName"
                label={t("form.firstName")}
                value={v.firstName}
                error={fields.firstName}
                autoComplete="given-name"
              />
              <FormField
                name="lastName"
                label={t("form.lastName")}
                value={v.lastName}
                error={fields.lastName}
                autoComplete="family-name"
              />
            </FormLayout.Group>
            <FormField
              name="email"
              type="email"
              label={t("form.email")}
              value={v.email}
              error={fields.email}
              autoComplete="email"
            />
            <FormField
              name="password"
              type="password"
              label={t("form.password")}
              error={fields.password}
              autoComplete="new-password"
              helpText={t("form.passwordHelp")}
            />
            {form.paypalEmail !== "off" ? (
              <FormField
                name="paypalEmail"
                type="email"
                label={t("form.paypalEmail")}
                value={v.paypalEmail}
                error={fields.paypalEmail}
                requiredIndicator={mode(form.paypalEmail)}
              />
            ) : null}
            {form.website !== "off" ? (
              <FormField
                name="website"
                type="url"
                label={t("form.website")}
                value={v.website}
                error={fields.website}
                requiredIndicator={mode(form.website)}
              />
            ) : null}
            {form.social !== "off" ? (
              <FormField
                name="social"
                label={t("form.social")}
                value={v.social}
                error={fields.social}
                multiline={3}
                helpText={t("form.socialHelp")}
                requiredIndicator={mode(form.social)}
              />
            ) : null}
            {form.questions.map((q) => (
              <FormField
                key={q.id}
                name={`q_${q.id}`}
                label={q.label}
                value={v[`q_${q.id}`]}
                error={fields[`q_${q.id}`]}
                requiredIndicator={q.required}
                multiline={2}
              />
            ))}
            <Checkbox
              id="field-terms"
              name="terms"
              value="on"
              label={
                form.termsUrl ? (
                  <>
                    {t("form.termsPrefix")}{" "}
                    <a href={form.termsUrl} target="_blank" rel="noopener noreferrer">
                      {t("form.termsLink")}
                    </a>
                  </>
                ) : (
                  t("form.terms")
                )
              }
              error={fields.terms}
            />
            <Button submit variant="primary" fullWidth>
              {t("signup.submit")}
            </Button>
          </FormLayout>
          <Text as="p" tone="subdued">
            {t("signup.haveAccount")} <a href={`${chrome.base}/login${chrome.query}`}>{t("signup.loginLink")}</a>
          </Text>
        </BlockStack>
      </form>
    </PortalFormPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
