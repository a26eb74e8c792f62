import { useFetcher } from "@remix-run/react";
import { BlockStack, Box, Button, Card, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "../../i18n/messages";
import type { ErrorBody } from "../../lib/errors";
import { MAX_SHARE_IMAGES, shareSettingsSchema, type ShareSettings } from "../../models/marketings/share-settings";
import { FormErrorBanner } from "../FormErrorBanner";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";
import { useSettingsForm } from "./useSettingsForm";

type TextKey = "x" | "facebook" | "whatsapp" | "emailSubject" | "emailBody";
const TEXTS: { key: TextKey; lines?: number }[] = [
  { key: "x", lines: 2 },
  { key: "facebook", lines: 3 },
  { key: "whatsapp", lines: 3 },
  { key: "emailSubject" },
  { key: "emailBody", lines: 5 },
];

// Settings > Marketings: the texts affiliates share per network and the
// images they may post with them (uploaded here at once, or picked from the
// image creatives); both take effect when the card is saved.
export function ShareSettingsCard({
  share,
  creatives,
}: {
  share: ShareSettings;
  creatives: { id: string; title: string; url: string }[];
}) {
  const { t } = useTranslation(["Settings.Marketings", "Global"]);
  const upload = useFetcher<{ uploaded?: string } & Partial<ErrorBody>>();
  const [picked, setPicked] = useState(creatives[0]?.url ?? "");
  const { values, setValues, dirty, busy, save, serverError, errorFor, toast, dismissToast } = useSettingsForm({
    initial: share,
    schema: shareSettingsSchema,
    t,
    savedKey: "share",
    extra: { intent: "share" },
  });
  useEffect(() => {
    const uploaded = upload.data?.uploaded;
    if (upload.state === "idle" && uploaded) {
      setValues((v) => (v.images.includes(uploaded) ? v : { ...v, images: [...v.images, uploaded] }));
    }
  }, [upload.state, upload.data, setValues]);
  const uploadError = useTranslatedError(upload.data?.error);
  const full = values.images.length >= MAX_SHARE_IMAGES;

  function uploadImage(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.set("intent", "share_upload");
    form.set("image", file);
    upload.submit(form, { method: "post", encType: "multipart/form-data" });
  }

  const addImage = (url: string) =>
    url && !values.images.includes(url) ? setValues({ ...values, images: [...values.images, url] }) : undefined;

  return (
    <Card>
      <UnsavedChangesPrompt dirty={dirty} />
      <BlockStack gap="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("share.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("share.body")}
          </Text>
        </BlockStack>
        <FormErrorBanner error={serverError} />
        <FormLayout>
          {TEXTS.map(({ key, lines }) => (
            <TextField
              key={key}
              label={t(`share.fields.${key}`)}
              autoComplete="off"
              multiline={lines}
              value={values[key]}
              onChange={(v) => setValues({ ...values, [key]: v })}
              helpText={
                key === "emailSubject" ? undefined : t("share.placeholders", { link: "{{link}}", code: "{{code}}" })
              }
              error={errorFor(key)}
            />
          ))}
        </FormLayout>
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {t("share.images")}
          </Text>
          <Text as="p" tone="subdued">
            {t("share.imagesHelp", { max: MAX_SHARE_IMAGES })}
          </Text>
          {values.images.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("share.noImages")}
            </Text>
          ) : (
            <InlineStack gap="300" wrap>
              {values.images.map((url) => (
                <BlockStack key={url} gap="100" inlineAlign="center">
                  <Box borderWidth="025" borderColor="border" borderRadius="200" padding="100">
                    <img src={url} alt="" height={72} data-testid="share-image" style={{ display: "block" }} />
                  </Box>
                  <Button
                    variant="plain"
                    onClick={() => setValues({ ...values, images: values.images.filter((u) => u !== url) })}
                  >
                    {t("share.remove")}
                  </Button>
                </BlockStack>
              ))}
            </InlineStack>
          )}
          {errorFor("images") ? (
            <Text as="p" tone="critical">
              {errorFor("images")}
            </Text>
          ) : null}
          {creatives.length ? (
            <InlineStack gap="200" blockAlign="end">
              <Select
                label={t("share.fromCreatives")}
                options={creatives.map((c) => ({ label: c.title, value: c.url }))}
                value={picked}
                onChange={setPicked}
                disabled={full}
              />
              <Button onClick={() => addImage(picked)} disabled={full || values.images.includes(picked)}>
                {t("share.add")}
              </Button>
            </InlineStack>
          ) : null}
          <InlineStack gap="200" blockAlign="center">
            <Text as="span">{t("share.upload")}</Text>
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              aria-label={t("share.upload")}
              disabled={full}
              onChange={(e) => uploadImage(e.currentTarget.files?.[0])}
            />
          </InlineStack>
          {uploadError ? (
            <Text as="p" tone="critical">
              {uploadError.message}
            </Text>
          ) : null}
        </BlockStack>
        <InlineStack align="end">
          <Button variant="primary" onClick={save} disabled={!dirty} loading={busy}>
            {t("share.save")}
          </Button>
        </InlineStack>
      </BlockStack>
      {toast ? <AppToast content={t("Global:saveSuccessful")} onDismiss={dismissToast} /> : null}
    </Card>
  );
}
