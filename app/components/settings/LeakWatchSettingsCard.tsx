import { BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppToast } from "~/components/AppToast";
import { leakSettingsSchema, type LeakSettings } from "../../models/leaks/detect-leak";
import { FormErrorBanner } from "../FormErrorBanner";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";
import { useSettingsForm } from "./useSettingsForm";

type NumberKey = "windowHours" | "minOrders" | "minSharePercent" | "minSiteOrders";
const NUMBERS: NumberKey[] = ["windowHours", "minOrders", "minSharePercent", "minSiteOrders"];
const siteLines = (text: string) =>
  text
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);

// Settings > Marketings > Leak watch (ADR 051): whether orders that used an
// affiliate's code with no other signal are watched, and the thresholds that
// raise a flag. The same schema checks the card and the action.
export function LeakWatchSettingsCard({ settings }: { settings: LeakSettings }) {
  const { t } = useTranslation(["Settings.Marketings", "Global"]);
  const { values, setValues, dirty, busy, save, serverError, errorFor, toast, dismissToast } = useSettingsForm({
    initial: settings,
    schema: leakSettingsSchema,
    t,
    savedKey: "leakWatch",
    extra: { intent: "leak_watch" },
  });
  // A number field left empty or half typed stays as typed; the schema says what is wrong.
  const asNumber = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));
  const shown = (n: number) => (Number.isFinite(n) ? String(n) : "");
  // The text is kept as typed (an empty new line included); the list is what it says.
  const [sitesText, setSitesText] = useState(values.couponSites.join("\n"));
  const sites = values.couponSites.join("\n");
  useEffect(() => {
    setSitesText((text) => (siteLines(text).join("\n") === sites ? text : sites));
  }, [sites]);
  const siteError =
    errorFor("couponSites") ?? values.couponSites.map((_, i) => errorFor(`couponSites.${i}`)).find(Boolean);

  return (
    <Card>
      <UnsavedChangesPrompt dirty={dirty} />
      <BlockStack gap="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("leaks.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("leaks.body")}
          </Text>
        </BlockStack>
        <FormErrorBanner error={serverError} />
        <FormLayout>
          <Checkbox
            label={t("leaks.fields.enabled")}
            checked={values.enabled}
            onChange={(enabled) => setValues({ ...values, enabled })}
            error={errorFor("enabled")}
          />
          <FormLayout.Group>
            {NUMBERS.map((key) => (
              <TextField
                key={key}
                label={t(`leaks.fields.${key}`)}
                helpText={t(`leaks.help.${key}`)}
                type="number"
                autoComplete="off"
                disabled={!values.enabled}
                value={shown(values[key])}
                onChange={(v) => setValues({ ...values, [key]: asNumber(v) })}
                error={errorFor(key)}
              />
            ))}
          </FormLayout.Group>
          <TextField
            label={t("leaks.fields.couponSites")}
            helpText={t("leaks.help.couponSites")}
            multiline={4}
            autoComplete="off"
            disabled={!values.enabled}
            value={sitesText}
            onChange={(v) => {
              setSitesText(v);
              setValues({ ...values, couponSites: siteLines(v) });
            }}
            error={siteError}
          />
        </FormLayout>
        <InlineStack align="end">
          <Button variant="primary" onClick={save} disabled={!dirty} loading={busy}>
            {t("leaks.save")}
          </Button>
        </InlineStack>
      </BlockStack>
      {toast ? <AppToast content={t("Global:saveSuccessful")} onDismiss={dismissToast} /> : null}
    </Card>
  );
}
