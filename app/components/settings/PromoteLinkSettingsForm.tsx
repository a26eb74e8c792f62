import { BlockStack, Card, Checkbox, ChoiceList, FormLayout, Text, TextField } from "@shopify/polaris";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { buildRedirectUrl } from "../../models/tracking/redirect-url";
import { defaultLandingPath, promoteLinkSchema, type PromoteLink } from "../../models/settings/promote-link";
import { SettingsPage } from "./SettingsPage";
import { useSettingsForm } from "./useSettingsForm";

// Settings > Promote link, saved to its own route's action; the same zod
// schema checks the form here and the body there.
export function PromoteLinkSettingsForm({ settings, host }: { settings: PromoteLink; host: string }) {
  const { t } = useTranslation(["Settings", "Global"]);
  const form = useSettingsForm({
    initial: settings,
    schema: promoteLinkSchema,
    t,
  });
  const { values, setValues, errorFor } = form;
  const set = (change: Partial<PromoteLink>) => setValues({ ...values, ...change });
  const example = useMemo(() => {
    const parsed = promoteLinkSchema.safeParse(values);
    return parsed.success
      ? buildRedirectUrl(
          host,
          defaultLandingPath(parsed.data),
          parsed.data.referral_param,
          "CODE",
          null,
          // A short link's redirect when the affiliate has a discount code in Shopify.
          parsed.data.auto_apply_discount && parsed.data.link_format === "short" ? "DISCOUNT" : null,
        )
      : null;
  }, [values, host]);

  const utmField = (key: "utm_source" | "utm_medium" | "utm_campaign") => (
    <TextField
      label={key}
      autoComplete="off"
      value={values[key]}
      onChange={(v) => set({ [key]: v })}
      error={errorFor(key)}
    />
  );

  return (
    <SettingsPage title={t("Settings:tabs.promoteLink")} form={form}>
      <Card>
        <FormLayout>
          <TextField
            label={t("Settings:general.referralParam")}
            autoComplete="off"
            value={values.referral_param}
            onChange={(referral_param) => set({ referral_param })}
            error={errorFor("referral_param")}
          />
          <ChoiceList
            title={t("Settings:promoteLink.destination")}
            choices={[
              { label: t("Settings:promoteLink.home"), value: "home" },
              { label: t("Settings:promoteLink.page"), value: "page" },
              { label: t("Settings:promoteLink.product"), value: "product" },
            ]}
            selected={[values.destination]}
            onChange={([destination]) => set({ destination: destination as PromoteLink["destination"] })}
          />
          {values.destination !== "home" ? (
            <TextField
              label={t("Settings:promoteLink.handle")}
              autoComplete="off"
              prefix={values.destination === "page" ? "/pages/" : "/products/"}
              value={values.destination_handle}
              onChange={(destination_handle) => set({ destination_handle })}
              error={errorFor("destination_handle")}
            />
          ) : null}
          <ChoiceList
            title={t("Settings:promoteLink.format")}
            choices={[
              { label: t("Settings:promoteLink.formatShort"), value: "short" },
              { label: t("Settings:promoteLink.formatStore"), value: "store" },
            ]}
            selected={[values.link_format]}
            onChange={([link_format]) => set({ link_format: link_format as PromoteLink["link_format"] })}
          />
        </FormLayout>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("Settings:promoteLink.utm")}
          </Text>
          <Text as="p" tone="subdued">
            {t("Settings:promoteLink.utmHelp")}
          </Text>
          <FormLayout>
            <FormLayout.Group>
              {utmField("utm_source")}
              {utmField("utm_medium")}
              {utmField("utm_campaign")}
            </FormLayout.Group>
          </FormLayout>
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("Settings:promoteLink.discount")}
          </Text>
          <Checkbox
            label={t("Settings:promoteLink.autoApply")}
            helpText={t("Settings:promoteLink.autoApplyHelp")}
            checked={values.auto_apply_discount}
            onChange={(auto_apply_discount) => set({ auto_apply_discount })}
          />
          {values.auto_apply_discount ? (
            <Checkbox
              label={t("Settings:promoteLink.showCodes")}
              helpText={t("Settings:promoteLink.showCodesHelp")}
              checked={values.show_codes}
              onChange={(show_codes) => set({ show_codes })}
            />
          ) : null}
        </BlockStack>
      </Card>
      {example ? (
        <Card>
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {t("Settings:promoteLink.example")}
            </Text>
            <Text as="p" breakWord>
              <span data-testid="promote-link-example">{example}</span>
            </Text>
          </BlockStack>
        </Card>
      ) : null}
    </SettingsPage>
  );
}
