import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage, useAccountTimeZone } from "~/components/portal/AccountPage";
import { FormField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { useFormat } from "~/i18n/format";
import { useTranslatedError } from "~/i18n/messages";
import type { RouteHandle } from "~/i18n/route-handle";
import type { FormActionData } from "~/lib/errors";
import { clientAddress } from "~/models/auth/rate-limit.server";
import { COUNTRY_CODES } from "~/models/tax-forms/countries";
import {
  CHAPTER3_STATUSES,
  TAX_FORM_KINDS,
  taxFormSchema,
  W9_CLASSIFICATIONS,
  type TaxFormKind,
} from "~/models/tax-forms/tax-form-schemas";
import { currentTaxForm, signTaxForm } from "~/models/tax-forms/tax-form-store.server";

// /account/payouts/tax-form: the affiliate's tax form (W-9 for US persons,
// W-8BEN for other individuals, W-8BEN-E for other entities), typed and
// signed here. The fields come from the forms' zod schemas
// (tax-form-schemas.ts), which the server parses the post with. The TIN is
// never sent back: the page shows its last four only.

export const handle: RouteHandle = {
  i18n: ["Account.TaxForm", "Account.Payouts", "Account.Common"],
  portal: true,
  title: "Account.TaxForm:title",
};

const query = z.object({
  kind: z.enum(TAX_FORM_KINDS).optional().catch(undefined),
  saved: z.literal("1").optional().catch(undefined),
});

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, query }) => {
  const current = await currentTaxForm(db, affiliate.id);
  return {
    current,
    kind: query.kind ?? null,
    saved: query.saved === "1",
    shopName: shop.name,
    name: `${affiliate.firstName} ${affiliate.lastName}`.trim(),
  };
});

export const action = /* @__PURE__ */ affiliateRoute(
  { body: taxFormSchema },
  async ({ request, db, affiliate, body }) => {
    await signTaxForm(db, affiliate.id, body, {
      ip: clientAddress(request),
      userAgent: request.headers.get("user-agent") ?? "",
    });
    return redirect("/account/payouts/tax-form?saved=1");
  },
);

const keep = () => undefined;

type Field =
  | { name: string; type: "text"; required?: boolean; autoComplete?: string }
  | { name: string; type: "date"; required?: boolean }
  | { name: string; type: "choice"; options: readonly string[]; prefix: string; required?: boolean }
  | { name: string; type: "country"; required?: boolean; optional?: boolean };

// The order and the required marks of each form's lines (the schemas say what is valid).
const FIELDS: Record<TaxFormKind, Field[]> = {
  w9: [
    { name: "name", type: "text", required: true, autoComplete: "name" },
    { name: "businessName", type: "text" },
    { name: "classification", type: "choice", options: W9_CLASSIFICATIONS, prefix: "classifications", required: true },
    { name: "exemptPayeeCode", type: "text" },
    { name: "fatcaCode", type: "text" },
    { name: "address", type: "text", required: true, autoComplete: "address-line1" },
    { name: "city", type: "text", required: true, autoComplete: "address-level2" },
    { name: "state", type: "text", required: true, autoComplete: "address-level1" },
    { name: "zip", type: "text", required: true, autoComplete: "postal-code" },
    { name: "tinType", type: "choice", options: ["ssn", "ein"], prefix: "tinTypes", required: true },
    { name: "tin", type: "text", required: true },
  ],
  w8ben: [
    { name: "name", type: "text", required: true, autoComplete: "name" },
    { name: "citizenship", type: "country", required: true },
    { name: "address", type: "text", required: true, autoComplete: "street-address" },
    { name: "city", type: "text", required: true },
    { name: "country", type: "country", required: true },
    { name: "mailingAddress", type: "text" },
    { name: "usTin", type: "text" },
    { name: "foreignTin", type: "text" },
    { name: "dateOfBirth", type: "date", required: true },
    { name: "treatyCountry", type: "country", optional: true },
    { name: "treatyArticle", type: "text" },
    { name: "treatyRate", type: "text" },
  ],
  w8bene: [
    { name: "organizationName", type: "text", required: true, autoComplete: "organization" },
    { name: "incorporationCountry", type: "country", required: true },
    { name: "chapter3Status", type: "choice", options: CHAPTER3_STATUSES, prefix: "chapter3", required: true },
    { name: "address", type: "text", required: true, autoComplete: "street-address" },
    { name: "city", type: "text", required: true },
    { name: "country", type: "country", required: true },
    { name: "foreignTin", type: "text", required: true },
  ],
};

export default function AccountTaxForm() {
  const { current, kind, saved, shopName, name } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData>();
  const { t, i18n } = useTranslation("Account.TaxForm");
  const error = useTranslatedError(data?.error);
  const format = useFormat();
  const zone = useAccountTimeZone();
  const shown = (data?.values?.kind as TaxFormKind | undefined) ?? kind;
  const regions = new Intl.DisplayNames([i18n.language, "en"], { type: "region" });
  const countryOptions = [
    { label: t("select"), value: "" },
    ...COUNTRY_CODES.map((c) => ({ label: regions.of(c) ?? c, value: c })).sort((a, b) =>
      a.label.localeCompare(b.label, i18n.language),
    ),
  ];
  const value = (field: string) => data?.values?.[field] ?? (field === "name" || field === "signatureName" ? name : "");

  const renderField = (f: Field) => {
    const label = t(`fields.${f.name}`);
    const fieldError = error?.fields?.[f.name];
    if (f.type === "text") {
      return (
        <FormField
          key={f.name}
          name={f.name}
          label={label}
          value={value(f.name)}
          error={fieldError}
          requiredIndicator={f.required}
          autoComplete={f.autoComplete}
          helpText={t(`help.${f.name}`, { defaultValue: "" }) || undefined}
        />
      );
    }
    if (f.type === "date") {
      return (
        <TextField
          key={f.name}
          id={`field-${f.name}`}
          name={f.name}
          type="date"
          label={label}
          value={value(f.name)}
          onChange={keep}
          error={fieldError}
          requiredIndicator={f.required}
          autoComplete="bday"
        />
      );
    }
    const options =
      f.type === "country"
        ? countryOptions
        : [{ label: t("select"), value: "" }, ...f.options.map((o) => ({ label: t(`${f.prefix}.${o}`), value: o }))];
    return (
      <Select
        key={f.name}
        id={`field-${f.name}`}
        name={f.name}
        label={label}
        options={options}
        value={value(f.name)}
        onChange={keep}
        error={fieldError}
        requiredIndicator={f.required}
      />
    );
  };

  return (
    <AccountPage title={t("title")} dated>
      <Text as="p">{t("intro", { shop: shopName })}</Text>
      {saved ? (
        <Banner tone="success">
          <p>{t("saved")}</p>
        </Banner>
      ) : null}
      {current ? (
        <Card>
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {t("onFile", { form: t(`kinds.${current.kind}`) })}
            </Text>
            <Text as="p" id="tax-form-signed">
              {t("signedBy", { name: current.signatureName, date: format.dateTime(current.signedAt, zone) })}
            </Text>
            <Text as="p" id="tax-form-tin">
              {t("tinOnFile", { mask: current.tinMask })}
            </Text>
            <InlineStack>
              <Button url="/account/payouts/tax-form/pdf" download>
                {t("download")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Card>
      ) : null}
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {current ? t("replace") : t("choose")}
          </Text>
          <InlineStack gap="200">
            {TAX_FORM_KINDS.map((k) => (
              <Button key={k} url={`/account/payouts/tax-form?kind=${k}`} pressed={shown === k} id={`kind-${k}`}>
                {t(`kinds.${k}`)}
              </Button>
            ))}
          </InlineStack>
          {TAX_FORM_KINDS.map((k) => (
            <Text as="p" tone="subdued" key={k}>
              <strong>{t(`kinds.${k}`)}</strong>: {t(`kindHelp.${k}`)}
            </Text>
          ))}
        </BlockStack>
      </Card>
      {shown ? (
        <Card>
          <form method="post" action={`/account/payouts/tax-form?kind=${shown}`} id="tax-form">
            <input type="hidden" name="kind" value={shown} />
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {t(`kinds.${shown}`)}
              </Text>
              {error && !error.fields ? (
                <Banner tone="critical">
                  <p>{error.message}</p>
                </Banner>
              ) : null}
              <FormLayout>
                {FIELDS[shown].map(renderField)}
                <Text as="h3" variant="headingSm">
                  {t("signature")}
                </Text>
                <Text as="p" tone="subdued">
                  {t(`certifyText.${shown === "w9" ? "w9" : "w8"}`)}
                </Text>
                <label className="portal-checkbox">
                  <input type="checkbox" name="certify" value="on" id="field-certify" /> {t("certify")}
                </label>
                {error?.fields?.certify ? (
                  <Text as="p" tone="critical">
                    {error.fields.certify}
                  </Text>
                ) : null}
                <FormField
                  name="signatureName"
                  label={t("fields.signatureName")}
                  value={value("signatureName")}
                  error={error?.fields?.signatureName}
                  helpText={t("signatureHelp")}
                  requiredIndicator
                />
                <Button submit variant="primary">
                  {t("submit")}
                </Button>
              </FormLayout>
            </BlockStack>
          </form>
        </Card>
      ) : null}
    </AccountPage>
  );
}
