import { Box, Card, FormLayout, Select, Text, TextField, BlockStack } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { brandingSchema, FONT_CHOICES, FONT_STACKS, type Branding } from "../../models/settings/branding";
import { ImageDropZone } from "../ImageDropZone";
import { SettingsPage } from "./SettingsPage";
import { useSettingsForm } from "./useSettingsForm";

type ImageField = "logo" | "favicon";

// Settings > Branding. Colours as #rrggbb with a swatch; images are uploaded
// at once (their own request) and take effect when the form is saved.
export function BrandingSettingsForm({ branding }: { branding: Branding }) {
  const { t } = useTranslation(["Settings.Branding", "Global"]);
  const form = useSettingsForm({
    initial: branding,
    schema: brandingSchema,
    t,
    extra: { intent: "save" },
  });
  const { values, setValues, errorFor } = form;
  const set = (change: Partial<Branding>) => setValues({ ...values, ...change });

  const colorField = (field: "primary_color" | "background_color") => (
    <TextField
      label={t(`fields.${field}`)}
      autoComplete="off"
      placeholder="#1f3a93"
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
      helpText={t("colorHelp")}
      error={errorFor(field)}
    />
  );

  const imageField = (field: ImageField) => (
    <ImageDropZone
      label={t(`fields.${field}`)}
      value={values[field]}
      error={errorFor(field)}
      testId={`upload-${field}`}
      thumbnailTestId={`branding-${field}`}
      onChange={(v) => set({ [field]: v })}
    />
  );

  return (
    <SettingsPage title={t("title")} form={form}>
      <Text as="p" tone="subdued">
        {t("intro")}
      </Text>
      <Card>
        <FormLayout>
          <FormLayout.Group>
            {colorField("primary_color")}
            {colorField("background_color")}
          </FormLayout.Group>
          <Select
            label={t("fields.font")}
            options={FONT_CHOICES.map((f) => ({ label: t(`fonts.${f}`), value: f }))}
            value={values.font}
            onChange={(font) => set({ font: font as Branding["font"] })}
          />
          <Box>
            <Text as="p" tone="subdued">
              <span style={{ fontFamily: FONT_STACKS[values.font] || undefined }} data-testid="font-sample">
                {t("fontSample")}
              </span>
            </Text>
          </Box>
        </FormLayout>
      </Card>
      <Card>
        <BlockStack gap="400">
          {imageField("logo")}
          {imageField("favicon")}
          <Text as="p" tone="subdued">
            {t("imageHelp")}
          </Text>
        </BlockStack>
      </Card>
    </SettingsPage>
  );
}
