import { useFetcher } from "@remix-run/react";
import { BlockStack, Box, Button, DropZone, InlineError, InlineStack, Spinner, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError, type KeyedError } from "~/i18n/messages";

export const IMAGE_ACCEPT = "image/png,image/jpeg,image/gif,image/webp";
const MAX_BYTES = 2 * 1024 * 1024;

/**
 * One image of a form: a thumbnail of the current one, a drop zone to
 * replace it and a button to clear it. A dropped file is posted to the
 * page's own action (`intent=upload`, field `image`), which decodes and
 * checks it (image-work) before storing; the stored address comes back and
 * becomes the value. Type and size are checked here first so the merchant
 * hears at once why a file is refused.
 */
export function ImageDropZone({
  label,
  value,
  onChange,
  error,
  testId,
  thumbnailTestId,
  helpText,
}: {
  label: string;
  value: string;
  onChange: (url: string) => void;
  error?: string;
  testId?: string;
  thumbnailTestId?: string;
  helpText?: string;
}) {
  const { t } = useTranslation("Portals");
  const upload = useFetcher<{ uploaded?: string; error?: KeyedError }>();
  const [problem, setProblem] = useState<string | null>(null);
  const serverError = useTranslatedError(upload.data?.error);
  const busy = upload.state !== "idle";

  useEffect(() => {
    if (upload.state === "idle" && upload.data?.uploaded) onChange(upload.data.uploaded);
    // Only a new answer of the upload sets the value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [upload.state, upload.data]);

  const send = (files: File[], rejected: File[]) => {
    const file = files[0];
    if (!file) {
      setProblem(rejected.length ? t("imageUpload.wrongType", { name: rejected[0]!.name }) : null);
      return;
    }
    if (file.size > MAX_BYTES) {
      setProblem(t("imageUpload.tooLarge", { name: file.name, mb: MAX_BYTES / (1024 * 1024) }));
      return;
    }
    setProblem(null);
    const form = new FormData();
    form.set("intent", "upload");
    form.set("image", file);
    upload.submit(form, { method: "post", encType: "multipart/form-data" });
  };

  const message = problem ?? serverError?.message ?? error ?? null;
  return (
    <BlockStack gap="200">
      <Text as="span" variant="bodyMd">
        {label}
      </Text>
      <InlineStack gap="300" blockAlign="center" wrap={false}>
        {value ? (
          <Box padding="100" borderColor="border" borderWidth="025" borderRadius="200" minWidth="64px">
            <img
              src={value}
              alt={label}
              data-testid={thumbnailTestId}
              style={{ display: "block", maxWidth: 120, maxHeight: 64, objectFit: "contain", margin: "0 auto" }}
            />
          </Box>
        ) : null}
        <div style={{ flex: "1 1 auto", minWidth: 0 }} data-testid={testId}>
          <DropZone
            accept={IMAGE_ACCEPT}
            type="image"
            allowMultiple={false}
            onDrop={(_all, accepted, rejected) => send(accepted, rejected)}
            label={label}
            labelHidden
            error={!!message}
            disabled={busy}
          >
            {busy ? (
              <div style={{ padding: 16, textAlign: "center" }}>
                <Spinner size="small" accessibilityLabel={t("imageUpload.sending")} />
              </div>
            ) : (
              <DropZone.FileUpload
                actionTitle={value ? t("imageUpload.replace") : t("imageUpload.add")}
                actionHint={t("imageUpload.hint", { mb: MAX_BYTES / (1024 * 1024) })}
              />
            )}
          </DropZone>
        </div>
        {value ? (
          <Button variant="plain" tone="critical" onClick={() => onChange("")}>
            {t("imageUpload.clear")}
          </Button>
        ) : null}
      </InlineStack>
      {helpText ? (
        <Text as="p" tone="subdued">
          {helpText}
        </Text>
      ) : null}
      {message ? <InlineError message={message} fieldID={testId ?? label} /> : null}
    </BlockStack>
  );
}
