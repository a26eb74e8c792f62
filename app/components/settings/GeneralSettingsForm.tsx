import { Card, FormLayout, Select, Text, TextField } from "@shopify/polaris";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_CODES, LANGUAGE_LABELS } from "../../i18n/languages";
import { formatMoney } from "../../lib/money";
import { shopUpdateSchema } from "../../models/shop/shop-update-schema";
import { useShell } from "../shell-data";
import { SettingsPage } from "./SettingsPage";
import { useSettingsForm } from "./useSettingsForm";

// Settings › General: the shop fields of the shop record, saved to its own
// route's action (the same update and zod schema as POST /api/shop).
export function GeneralSettingsForm() {
  const { t } = useTranslation(["Settings", "Global"]);
  const { shop } = useShell();
  const initial = useMemo(
    () => ({
      language: shop.setting.general.language,
      money_format: shop.money_format,
      referral_param: shop.setting.general.referral_param,
    }),
    [shop],
  );
  const form = useSettingsForm({
    initial,
    schema: shopUpdateSchema,
    t,
    toBody: (values) => ({
      money_format: values.money_format,
      setting: { general: { language: values.language, referral_param: values.referral_param } },
    }),
  });
  const { values, setValues, errorFor } = form;

  return (
    <SettingsPage title={t("Settings:tabs.general")} form={form}>
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
    </SettingsPage>
  );
}
