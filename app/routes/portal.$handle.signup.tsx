import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { FormField } from "~/components/portal/FormField";
import { PortalFormPage, PortalLayout } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { emptyPage } from "~/lib/portal-content";
import { parseForm } from "~/lib/http.server";
import { signupSchema, signUpAffiliate } from "~/models/affiliate-account/signup.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import { portalActionHeaders, portalFormAction, type PortalActionData } from "~/models/portal/form-action.server";
import { loadPortalPage, portalHeaders } from "~/models/portal/portal-page-loader.server";

export const handle = { i18n: ["Account.Common", "Portal.TopBar"], portal: true };
export const headers = portalActionHeaders;
export const meta: MetaFunction = () => [{ title: "Sign up" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, page, chrome } = await loadPortalPage(request, params.handle, "signup");
  const ref = new URL(request.url).searchParams.get("ref") ?? "";
  return json(
    { page, chrome, form: (page ?? emptyPage()).form, ref: ref.slice(0, 64) },
    { headers: await portalHeaders(ctx) },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  return portalFormAction(request, async () => {
    const { ctx, page } = await loadPortalPage(request, params.handle, "signup");
    const form = (page ?? emptyPage()).form;
    const input = await parseForm(request, signupSchema(form));
    const result = await signUpAffiliate(ctx.shop.id, form, input, clientAddress(request));
    return json({ done: true, status: result.status });
  });
}

export default function Signup() {
  const { page, chrome, form, ref } = useLoaderData<typeof loader>();
  const data = useActionData<PortalActionData & { status?: string }>();
  const { t } = useTranslation("Account.Common");
  const fields = data?.error?.fields ?? {};
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
              <Button url={`${chrome.base}/login`} variant="primary">
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
      <form method="post" action={`${chrome.base}/signup`}>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("signup.title", { shop: chrome.shopName })}
          </Text>
          {data?.error ? (
            <Banner tone="critical">
              <p data-testid="signup-error">{data.error.fields ? t("form.fixFields") : data.error.message}</p>
            </Banner>
          ) : null}
          <input type="hidden" name="ref" value={v.ref ?? ref} />
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
            {t("signup.haveAccount")} <a href={`${chrome.base}/login`}>{t("signup.loginLink")}</a>
          </Text>
        </BlockStack>
      </form>
    </PortalFormPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
