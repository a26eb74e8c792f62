import { useParams, useRevalidator } from "@remix-run/react";
import { Banner, BlockStack, Card, DropZone, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "~/i18n/messages";
import { MAX_FILE_BYTES, MAX_IMAGE_BYTES } from "~/models/creatives/file-types";
import { uploadFile } from "./upload-file";

const ACCEPT = "image/png,image/jpeg,image/gif,image/webp,application/pdf,application/zip,.zip,.pdf";

interface Problem {
  name: string;
  message: string;
}

/**
 * Drop images, PDFs and zips (or click to choose): each is sent in turn with
 * a progress bar and becomes a creative; the list below reloads when all
 * are in. The server checks size and type again by content.
 */
export function CreativeUploader() {
  const { t } = useTranslation("Creatives");
  const { role } = useParams();
  const revalidator = useRevalidator();
  const [current, setCurrent] = useState<{ name: string; progress: number; index: number; count: number } | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [added, setAdded] = useState(0);

  async function send(files: File[]) {
    const found: Problem[] = [];
    let done = 0;
    for (const [index, file] of files.entries()) {
      setCurrent({ name: file.name, progress: 0, index: index + 1, count: files.length });
      try {
        const answer = await uploadFile(
          `/${role}/creatives/upload?name=${encodeURIComponent(file.name)}`,
          file,
          (fraction) => setCurrent((c) => (c ? { ...c, progress: Math.round(fraction * 100) } : c)),
        );
        if (answer.status >= 200 && answer.status < 300) done += 1;
        else {
          const error = (answer.body as { error?: { message?: string; messageKey?: { key: string } } } | null)?.error;
          found.push({
            name: file.name,
            message: translateMessage(t, error?.messageKey ?? error?.message, error?.message) ?? t("errors.failed"),
          });
        }
      } catch {
        found.push({ name: file.name, message: t("errors.failed") });
      }
    }
    setCurrent(null);
    setProblems(found);
    setAdded(done);
    if (done > 0) revalidator.revalidate();
  }

  return (
    <Card>
      <BlockStack gap="300">
        <DropZone
          accept={ACCEPT}
          allowMultiple
          disabled={current !== null}
          onDrop={(files) => void send(files)}
          label={t("upload.label")}
          labelHidden
        >
          {current ? (
            <div style={{ padding: 24 }} data-testid="upload-progress">
              <BlockStack gap="200">
                <Text as="p">
                  {t("upload.sending", { name: current.name, index: current.index, total: current.count })}
                </Text>
                <ProgressBar progress={current.progress} size="small" tone="primary" />
              </BlockStack>
            </div>
          ) : (
            <DropZone.FileUpload
              actionTitle={t("upload.action")}
              actionHint={t("upload.hint", {
                imageMb: MAX_IMAGE_BYTES / (1024 * 1024),
                fileMb: MAX_FILE_BYTES / (1024 * 1024),
              })}
            />
          )}
        </DropZone>
        {added > 0 && !current ? (
          <InlineStack>
            <Text as="p" tone="success">
              <span data-testid="upload-done">{t("upload.done", { number: added })}</span>
            </Text>
          </InlineStack>
        ) : null}
        {problems.length ? (
          <Banner tone="critical" title={t("upload.problems")} onDismiss={() => setProblems([])}>
            <ul>
              {problems.map((p) => (
                <li key={p.name}>
                  {p.name}: {p.message}
                </li>
              ))}
            </ul>
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  );
}
