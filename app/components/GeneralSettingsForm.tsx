import { useFetcher, useParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, Page, Select, Text, TextField } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_CODES, LANGUAGE_LABELS } from "../i18n/languages";
import { keyedErrorMap, translateMessage, useTranslatedError } from "../i18n/messages";
import { formatMoney } from "../lib/money";
import type { ErrorBody } from "../lib/errors";
import { shopUpdateSchema } from "../models/shop/shop-update-schema";
import { fieldErrorsFromZod } from "../lib/errors";
import { useShell } from "./shell-data";
import { UnsavedChangesPrompt } from "./UnsavedChangesPrompt";

// Settings > General: the shop fields of the shop record, saved through
// POST /api/shop (the same zod schema checks the form here and the API there).
export function GeneralSettingsForm() {
  const { t } = useTranslation(["Settings", "Global"]);
  const { role } = useParams();
  const { shop } = useShell();
  const fetcher = useFetcher<{ shop?: unknown } & Partial<ErrorBody>>();
  const saved = useMemo(
    () => ({
      language: shop.setting.general.language,
      money_format: shop.money_format,
      referral_param: shop.setting.general.referral_param,
    }),
    [shop],
  );
  const [values, setValues] = useState(saved);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [toast, setToast] = useState(false);
  useEffect(() => setValues(saved), [saved]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.shop) setToast(true);
  }, [fetcher.state, fetcher.data]);

  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const serverError = useTranslatedError(fetcher.data?.error);
  const serverFields = serverError?.fields ?? {};
  const errorFor = (path: string) => translateMessage(t, clientErrors[path]) ?? serverFields[path];

  function save() {
    const payload = {
      money_format: values.money_format,
      setting: { general: { language: values.language, referral_param: values.referral_param } },
    };
    const parsed = shopUpdateSchema.safeParse(payload, { errorMap: keyedErrorMap });
    if (!parsed.success) {
      setClientErrors(fieldErrorsFromZod(parsed.error.issues));
      return;
    }
    setClientErrors({});
    fetcher.submit(payload, { method: "post", action: "/api/shop", encType: "application/json" });
  }

  return (
    <Page
      title={t("Settings:tabs.general")}
      backAction={{ url: `/${role}/settings` }}
      primaryAction={{ content: t("Global:save"), onAction: save, disabled: !dirty, loading: fetcher.state !== "idle" }}
    >
      <UnsavedChangesPrompt dirty={dirty} />
      <BlockStack gap="400">
        {serverError && !serverError.fields ? (
          <Banner tone="critical">
            <p>{serverError.message}</p>
          </Banner>
        ) : null}
        <Card>
          <FormLayout>
            <Select
              label={t("Settings:general.language")}
              options={LANGUAGE_CODES.map((code) => ({ label: LANGUAGE_LABELS[code], value: code }))}
              value={values.language}
              onChange={(language) => setValues({ ...values, language })}
              helpText={t("Settings:general.languageHelp")}
              error={errorFor("setting.general.language")}
            />
            <TextField
              label={t("Settings:general.moneyFormat")}
              autoComplete="off"
              value={values.money_format}
              onChange={(money_format) => setValues({ ...values, money_format })}
              helpText={t("Settings:general.moneyFormatHelp", {
                example: formatMoney(123456, { currency: shop.currency, format: values.money_format }),
              })}
              error={errorFor("money_format")}
            />
            <TextField
              label={t("Settings:general.referralParam")}
              autoComplete="off"
              value={values.referral_param}
              onChange={(referral_param) => setValues({ ...values, referral_param })}
              helpText={
                <Text as="span">
                  {t("Settings:general.referralParamHelp", {
                    example: `https://${shop.domain}/?${values.referral_param || "ref"}=CODE`,
                  })}
                </Text>
              }
              error={errorFor("setting.general.referral_param")}
            />
          </FormLayout>
        </Card>
        <div>
          <Button variant="primary" onClick={save} disabled={!dirty} loading={fetcher.state !== "idle"}>
            {t("Global:save")}
          </Button>
        </div>
      </BlockStack>
      {toast ? <AppToast content={t("Global:saveSuccessful")} onDismiss={() => setToast(false)} /> : null}
    </Page>
  );
}
