import { useFetcher, useParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Page,
  Select,
  Text,
  TextField,
  Toast,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { keyedErrorMap, translateMessage, useTranslatedError } from "../../i18n/messages";
import { fieldErrorsFromZod, type ErrorBody } from "../../lib/errors";
import { brandingSchema, FONT_CHOICES, FONT_STACKS, type Branding } from "../../models/settings/branding";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";

type ImageField = "logo" | "favicon";

// Settings > Branding. Colours as #rrggbb with a swatch; images are uploaded
// at once (their own request) and take effect when the form is saved.
export function BrandingSettingsForm({ branding }: { branding: Branding }) {
  const { t } = useTranslation(["Settings.Branding", "Global"]);
  const { role } = useParams();
  const fetcher = useFetcher<{ saved?: Branding } & Partial<ErrorBody>>();
  const upload = useFetcher<{ uploaded?: string } & Partial<ErrorBody>>();
  const uploading = useRef<ImageField | null>(null);
  const [saved, setSaved] = useState(branding);
  const [values, setValues] = useState(branding);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [toast, setToast] = useState(false);
  // Keyed by content: a revalidation (e.g. after an upload) brings an equal
  // object, which must not throw away what is being edited.
  const incoming = JSON.stringify(branding);
  useEffect(() => {
    setSaved(JSON.parse(incoming));
    setValues(JSON.parse(incoming));
  }, [incoming]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.saved) {
      setSaved(fetcher.data.saved);
      setValues(fetcher.data.saved);
      setToast(true);
    }
  }, [fetcher.state, fetcher.data]);
  useEffect(() => {
    const field = uploading.current;
    if (upload.state === "idle" && field && upload.data?.uploaded) {
      setValues((v) => ({ ...v, [field]: upload.data!.uploaded! }));
      uploading.current = null;
    }
  }, [upload.state, upload.data]);

  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const serverError = useTranslatedError(fetcher.data?.error);
  const uploadError = useTranslatedError(upload.data?.error);
  const serverFields = serverError?.fields ?? {};
  const errorFor = (path: keyof Branding) => translateMessage(t, clientErrors[path]) ?? serverFields[path];
  const set = (change: Partial<Branding>) => setValues({ ...values, ...change });

  function save() {
    const parsed = brandingSchema.safeParse(values, { errorMap: keyedErrorMap });
    if (!parsed.success) {
      setClientErrors(fieldErrorsFromZod(parsed.error.issues));
      return;
    }
    setClientErrors({});
    fetcher.submit({ ...parsed.data, intent: "save" }, { method: "post", encType: "application/json" });
  }

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
    <Page
      title={t("title")}
      backAction={{ url: `/${role}/settings` }}
      primaryAction={{ content: t("Global:save"), onAction: save, disabled: !dirty, loading: fetcher.state !== "idle" }}
    >
      <UnsavedChangesPrompt dirty={dirty} />
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("intro")}
        </Text>
        {serverError && !serverError.fields ? (
          <Banner tone="critical">
            <p>{serverError.message}</p>
          </Banner>
        ) : null}
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
        <div>
          <Button variant="primary" onClick={save} disabled={!dirty} loading={fetcher.state !== "idle"}>
            {t("Global:save")}
          </Button>
        </div>
      </BlockStack>
      {toast ? <Toast content={t("Global:saveSuccessful")} onDismiss={() => setToast(false)} /> : null}
    </Page>
  );
}
