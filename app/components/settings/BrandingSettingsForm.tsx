import { useFetcher } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "../../i18n/messages";
import type { ErrorBody } from "../../lib/errors";
import { brandingSchema, FONT_CHOICES, FONT_STACKS, type Branding } from "../../models/settings/branding";
import { SettingsPage } from "./SettingsPage";
import { useSettingsForm } from "./useSettingsForm";

type ImageField = "logo" | "favicon";

// Settings > Branding. Colours as #rrggbb with a swatch; images are uploaded
// at once (their own request) and take effect when the form is saved.
export function BrandingSettingsForm({ branding }: { branding: Branding }) {
  const { t } = useTranslation(["Settings.Branding", "Global"]);
  const upload = useFetcher<{ uploaded?: string } & Partial<ErrorBody>>();
  const uploading = useRef<ImageField | null>(null);
  const form = useSettingsForm({
    initial: branding,
    schema: brandingSchema,
    t,
    extra: { intent: "save" },
  });
  const { values, setValues, errorFor } = form;
  useEffect(() => {
    const field = uploading.current;
    if (upload.state === "idle" && field && upload.data?.uploaded) {
      setValues((v) => ({ ...v, [field]: upload.data!.uploaded! }));
      uploading.current = null;
    }
  }, [upload.state, upload.data, setValues]);

  const uploadError = useTranslatedError(upload.data?.error);
  const set = (change: Partial<Branding>) => setValues({ ...values, ...change });

  function uploadImage(field: ImageField, file: File | undefined) {
    if (!file) return;
    uploading.current = field;
    const form = new FormData();
    form.set("intent", "upload");
    form.set("image", file);
    upload.submit(form, { method: "post", encType: "multipart/form-data" });
  }

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
    <BlockStack gap="200">
      <Text as="p">{t(`fields.${field}`)}</Text>
      <InlineStack gap="300" blockAlign="center">
        {values[field] ? (
          <img src={values[field]} alt="" height={field === "logo" ? 40 : 24} data-testid={`branding-${field}`} />
        ) : (
          <Text as="span" tone="subdued">
            {t("noImage")}
          </Text>
        )}
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-label={t(`upload.${field}`)}
          onChange={(e) => uploadImage(field, e.currentTarget.files?.[0])}
        />
        {values[field] ? <Button onClick={() => set({ [field]: "" })}>{t("remove")}</Button> : null}
      </InlineStack>
      {errorFor(field) ? (
        <Text as="p" tone="critical">
          {errorFor(field)}
        </Text>
      ) : null}
    </BlockStack>
  );

  return (
    <SettingsPage title={t("title")} form={form}>
      <Text as="p" tone="subdued">
        {t("intro")}
      </Text>
      {uploadError ? (
        <Banner tone="critical">
          <p>{uploadError.message}</p>
        </Banner>
      ) : null}
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
