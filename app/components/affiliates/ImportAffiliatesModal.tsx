import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, DropZone, Modal, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ErrorBody } from "~/lib/errors";
import { ImportReport } from "../csv/ImportReport";
import { FormErrorBanner } from "../FormErrorBanner";
import { CSV_COLUMNS, MAX_IMPORT_ROWS } from "~/models/affiliates/csv-columns";

interface ImportAnswer extends Partial<ErrorBody> {
  ok?: boolean;
  imported?: number;
  errors?: { row: number; column: string; message: string }[];
}

/** CSV import: all rows or none; a failed file lists every row's problems. */
export function ImportAffiliatesModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation("Affiliates");
  const fetcher = useFetcher<ImportAnswer>();
  const [file, setFile] = useState<File | null>(null);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  function submit() {
    if (!file) return;
    const form = new FormData();
    form.set("intent", "import");
    form.set("file", file);
    fetcher.submit(form, { method: "post", encType: "multipart/form-data" });
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t("import.title")}
      primaryAction={{
        content: t("import.submit"),
        onAction: submit,
        disabled: !file,
        loading: fetcher.state !== "idle",
      }}
      secondaryActions={[{ content: t("close"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p">{t("import.help", { columns: CSV_COLUMNS.join(", "), max: MAX_IMPORT_ROWS })}</Text>
          {answer?.ok ? (
            <Banner tone="success">
              <p data-testid="import-done">{t("import.done", { count: answer.imported })}</p>
            </Banner>
          ) : null}
          <FormErrorBanner error={answer?.error} />
          <ImportReport
            errors={answer?.errors}
            title={t("import.failed", { count: answer?.errors?.length ?? 0 })}
            headings={[t("import.row"), t("import.column"), t("import.message")]}
          />
          <DropZone
            accept=".csv,text/csv"
            type="file"
            allowMultiple={false}
            onDrop={(files) => setFile(files[0] ?? null)}
            label={t("import.file")}
          >
            {file ? (
              <Text as="p" alignment="center">
                {file.name}
              </Text>
            ) : (
              <DropZone.FileUpload actionHint={t("import.hint")} />
            )}
          </DropZone>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
