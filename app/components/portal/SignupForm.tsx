import { Banner, BlockStack, Button, Checkbox, FormLayout, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { languageByTag } from "~/i18n/language-table";
import type { SignupFormConfig } from "~/lib/portal-content";
import { answerName, fieldLabel } from "~/lib/signup-fields";
import { FormField } from "./FormField";
import type { PortalChrome } from "./PortalLayout";

// The affiliate sign-up form: the public sign-up page renders it (no script
// runs there: the browser keeps what is typed) and the portal editor's
// preview renders the same form with the draft's settings.

const keep = () => undefined;

export function SignupForm({
  chrome,
  form,
  refCode,
  via,
  values = {},
  fields = {},
  hasError = false,
  errorMessage,
}: {
  chrome: PortalChrome;
  form: SignupFormConfig;
  refCode: string;
  via: string;
  values?: Record<string, string>;
  fields?: Record<string, string>;
  hasError?: boolean;
  errorMessage?: string;
}) {
  const { t, i18n } = useTranslation("Account.Common");
  const language = chrome.lang ?? languageByTag(i18n.language)?.code ?? null;
  const v = values;
  const mode = (m: string) => m === "required";
  return (
    <form method="post" action={`${chrome.base}/signup${chrome.query ?? ""}`}>
      {chrome.lang ? <input type="hidden" name="language" value={chrome.lang} /> : null}
      <BlockStack gap="400">
        <Text as="h1" variant="headingLg">
          {t("signup.title", { shop: chrome.shopName })}
        </Text>
        {hasError ? (
          <Banner tone="critical">
            <p data-testid="signup-error">{errorMessage}</p>
          </Banner>
        ) : null}
        <input type="hidden" name="ref" value={v.ref ?? refCode} />
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
          {form.questions.map((q) => {
            const name = answerName(q);
            const label = fieldLabel(q, language);
            if (q.type === "checkbox")
              return (
                <Checkbox
                  key={q.id}
                  id={`field-${name}`}
                  name={name}
                  value="on"
                  label={q.required ? `${label} *` : label}
                  checked={v[name] === "on" ? true : undefined}
                  onChange={keep}
                  error={fields[name]}
                />
              );
            if (q.type === "select")
              return (
                <div key={q.id} className="portal-select">
                  <Select
                    id={`field-${name}`}
                    name={name}
                    label={label}
                    requiredIndicator={q.required}
                    options={[{ label: "", value: "" }, ...q.options.map((o) => ({ label: o, value: o }))]}
                    value={v[name] ?? ""}
                    onChange={keep}
                    error={fields[name]}
                  />
                </div>
              );
            return (
              <FormField
                key={q.id}
                name={name}
                label={label}
                value={v[name]}
                error={fields[name]}
                requiredIndicator={q.required}
                multiline={2}
              />
            );
          })}
          {form.termsUrl ? (
            <Checkbox
              id="field-terms"
              name="terms"
              value="on"
              label={
                <>
                  {t("form.termsPrefix")}{" "}
                  <a href={form.termsUrl} target="_blank" rel="noopener noreferrer">
                    {t("form.termsLink")}
                  </a>
                </>
              }
              error={fields.terms}
            />
          ) : null}
          <Button submit variant="primary" fullWidth>
            {t("signup.submit")}
          </Button>
        </FormLayout>
        <Text as="p" tone="subdued">
          {t("signup.haveAccount")} <a href={`${chrome.base}/login${chrome.query ?? ""}`}>{t("signup.loginLink")}</a>
        </Text>
      </BlockStack>
    </form>
  );
}
