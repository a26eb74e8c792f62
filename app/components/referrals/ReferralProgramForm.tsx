import { useParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  FormLayout,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { currencyExponent } from "../../lib/money";
import {
  advocateValueIsPercent,
  friendValueIsPercent,
  referralProgramFormCheck,
  WIDGET_POSITIONS,
  type ReferralProgramForm as Form,
  type ReferralProgramFormField,
} from "../../models/referrals/program-form";
import { ADVOCATE_REWARD_KINDS, CODE_MODES, FRIEND_REWARD_TYPES } from "../../models/referrals/program-settings";
import { useSettingsForm } from "../settings/useSettingsForm";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";
import { ReferralWidgetPreview, useWidgetTexts } from "./ReferralWidgetPreview";

// The refer-a-friend program screen: the form on the left, a live preview of
// the storefront widget (from the unsaved values) on the right. Amounts are
// typed in the shop currency, percents with up to two decimals.

export function ReferralProgramForm({ form, currency }: { form: Form; currency: string }) {
  // Campaigns: the typed-number messages of lib/decimal-input.
  const { t } = useTranslation(["Referrals", "Global", "Campaigns"]);
  const { role } = useParams();
  const schema = useMemo(() => referralProgramFormCheck(currencyExponent(currency)), [currency]);
  const { values, setValues, dirty, busy, save, serverError, errorFor, toast, dismissToast } = useSettingsForm({
    initial: form,
    schema,
    t,
  });
  const set = (change: Partial<Form>) => setValues({ ...values, ...change });
  const defaults = useWidgetTexts({
    ...values,
    widgetButtonText: "",
    widgetTitle: "",
    widgetDescription: "",
    widgetFriendTitle: "",
    widgetFriendDescription: "",
  });

  const number = (field: ReferralProgramFormField, label: string, options: { suffix?: string; help?: string } = {}) => (
    <TextField
      label={label}
      autoComplete="off"
      inputMode="decimal"
      value={String(values[field])}
      onChange={(v) => set({ [field]: v })}
      suffix={options.suffix}
      helpText={options.help}
      error={errorFor(field)}
    />
  );
  const money = (field: ReferralProgramFormField, label: string, help?: string) =>
    number(field, label, { suffix: currency, help });
  const percent = (field: ReferralProgramFormField, label: string) => number(field, label, { suffix: "%" });
  const text = (field: ReferralProgramFormField, label: string, placeholder: string, multiline = false) => (
    <TextField
      label={label}
      autoComplete="off"
      value={String(values[field])}
      placeholder={placeholder}
      multiline={multiline ? 2 : undefined}
      onChange={(v) => set({ [field]: v })}
      helpText={t("widget.emptyHelp")}
      error={errorFor(field)}
    />
  );
  const color = (field: "widgetColor" | "widgetTextColor", label: string) => (
    <TextField
      label={label}
      autoComplete="off"
      placeholder="#1f5199"
      value={values[field]}
      onChange={(v) => set({ [field]: v })}
      prefix={
        <span
          aria-hidden
          style={{
            display: "inline-block",
            width: 16,
            height: 16,
            borderRadius: 4,
            border: "1px solid var(--p-color-border)",
            background: /^#[0-9a-f]{6}$/i.test(values[field]) ? values[field] : "transparent",
          }}
        />
      }
      error={errorFor(field)}
    />
  );

  return (
    <Page
      title={t("title")}
      subtitle={t("subtitle")}
      primaryAction={{ content: t("Global:save"), onAction: save, disabled: !dirty, loading: busy }}
      secondaryActions={[{ content: t("historyLink"), url: `/${role}/referrals/history` }]}
    >
      <UnsavedChangesPrompt dirty={dirty} />
      <Layout>
        {serverError && !serverError.fields ? (
          <Layout.Section>
            <Banner tone="critical">
              <p>{serverError.message}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {serverError?.fields?._ ? (
          <Layout.Section>
            <Banner tone="critical">
              <p>{serverError.fields._}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  {t("program.heading")}
                </Text>
                <Checkbox
                  label={t("program.enabled")}
                  helpText={t("program.enabledHelp")}
                  checked={values.enabled}
                  onChange={(enabled) => set({ enabled })}
                />
                <ChoiceList
                  title={t("program.whoCanRefer")}
                  choices={(["anyone", "customers"] as const).map((v) => ({
                    label: t(`program.who.${v}`),
                    value: v,
                  }))}
                  selected={[values.whoCanRefer]}
                  onChange={([v]) => set({ whoCanRefer: v as Form["whoCanRefer"] })}
                />
                <ChoiceList
                  title={t("program.codeMode")}
                  choices={CODE_MODES.map((v) => ({
                    label: t(`program.codeModes.${v}`),
                    helpText: t(`program.codeModes.${v}Help`),
                    value: v,
                  }))}
                  selected={[values.codeMode]}
                  onChange={([v]) => set({ codeMode: v as Form["codeMode"] })}
                />
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  {t("friend.heading")}
                </Text>
                <FormLayout>
                  <FormLayout.Group>
                    <Select
                      label={t("friend.type")}
                      options={FRIEND_REWARD_TYPES.map((v) => ({ label: t(`friend.types.${v}`), value: v }))}
                      value={values.friendType}
                      onChange={(v) => set({ friendType: v as Form["friendType"] })}
                    />
                    {values.friendType === "free_shipping" ? (
                      <Box />
                    ) : friendValueIsPercent(values) ? (
                      percent("friendValue", t("friend.percentage"))
                    ) : (
                      money("friendValue", t("friend.amount"))
                    )}
                  </FormLayout.Group>
                  <FormLayout.Group>
                    {money("friendMinimumOrder", t("friend.minimumOrder"), t("friend.minimumOrderHelp"))}
                    {number("friendExpiryDays", t("friend.expiryDays"), { help: t("friend.expiryDaysHelp") })}
                  </FormLayout.Group>
                  <Checkbox
                    label={t("friend.firstOrderOnly")}
                    checked={values.friendFirstOrderOnly}
                    onChange={(friendFirstOrderOnly) => set({ friendFirstOrderOnly })}
                  />
                </FormLayout>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  {t("advocate.heading")}
                </Text>
                <ChoiceList
                  title={t("advocate.kind")}
                  choices={ADVOCATE_REWARD_KINDS.map((v) => ({
                    label: t(`advocate.kinds.${v}`),
                    helpText: t(`advocate.kinds.${v}Help`),
                    value: v,
                  }))}
                  selected={[values.advocateKind]}
                  onChange={([v]) => set({ advocateKind: v as Form["advocateKind"] })}
                />
                <FormLayout>
                  <FormLayout.Group>
                    {values.advocateKind === "discount_code" ? (
                      <Select
                        label={t("advocate.type")}
                        options={(["percentage", "fixed_amount"] as const).map((v) => ({
                          label: t(`advocate.types.${v}`),
                          value: v,
                        }))}
                        value={values.advocateType}
                        onChange={(v) => set({ advocateType: v as Form["advocateType"] })}
                      />
                    ) : null}
                    {advocateValueIsPercent(values)
                      ? percent("advocateValue", t("advocate.percentage"))
                      : money("advocateValue", t("advocate.amount"))}
                  </FormLayout.Group>
                  {number("holdDays", t("advocate.holdDays"), { help: t("advocate.holdDaysHelp") })}
                </FormLayout>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  {t("fraud.heading")}
                </Text>
                <FormLayout>
                  <FormLayout.Group>
                    {number("burstThreshold", t("fraud.burstThreshold"))}
                    {number("burstMinutes", t("fraud.burstMinutes"))}
                  </FormLayout.Group>
                  <Text as="p" tone="subdued" variant="bodySm">
                    {t("fraud.burstHelp")}
                  </Text>
                  <Checkbox
                    label={t("fraud.blockExistingCustomers")}
                    helpText={t("fraud.blockExistingCustomersHelp")}
                    checked={values.blockExistingCustomers}
                    onChange={(blockExistingCustomers) => set({ blockExistingCustomers })}
                  />
                  {number("couponSiteThreshold", t("fraud.couponSiteThreshold"), {
                    help: t("fraud.couponSiteThresholdHelp"),
                  })}
                </FormLayout>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="400">
                <Text as="h2" variant="headingMd">
                  {t("widget.heading")}
                </Text>
                <FormLayout>
                  <Select
                    label={t("widget.position")}
                    options={WIDGET_POSITIONS.map((v) => ({ label: t(`widget.positions.${v}`), value: v }))}
                    value={values.widgetPosition}
                    onChange={(v) => set({ widgetPosition: v as Form["widgetPosition"] })}
                  />
                  <FormLayout.Group>
                    {color("widgetColor", t("widget.color"))}
                    {color("widgetTextColor", t("widget.textColor"))}
                  </FormLayout.Group>
                  {text("widgetButtonText", t("widget.buttonText"), defaults.buttonText)}
                  {text("widgetTitle", t("widget.title"), defaults.title)}
                  {text("widgetDescription", t("widget.description"), defaults.description, true)}
                  {text("widgetFriendTitle", t("widget.friendTitle"), defaults.friendTitle)}
                  {text("widgetFriendDescription", t("widget.friendDescription"), defaults.friendDescription, true)}
                </FormLayout>
              </BlockStack>
            </Card>
            <div>
              <Button variant="primary" onClick={save} disabled={!dirty} loading={busy}>
                {t("Global:save")}
              </Button>
            </div>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <div style={{ position: "sticky", top: 16 }}>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("preview.heading")}
                </Text>
                <ReferralWidgetPreview values={values} sampleCode="ANNA-7K2Q" />
              </BlockStack>
            </Card>
          </div>
        </Layout.Section>
      </Layout>
      {toast ? <AppToast content={t("Global:saveSuccessful")} onDismiss={dismissToast} /> : null}
    </Page>
  );
}
