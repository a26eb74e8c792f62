import { useFetcher, useParams, useRevalidator } from "@remix-run/react";
import { Banner, BlockStack, DataTable, DropZone, Modal, ProgressBar, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ErrorBody } from "~/lib/errors";
import { translateMessage } from "~/i18n/messages";
import { ImportReport } from "../csv/ImportReport";
import { FormErrorBanner } from "../FormErrorBanner";
import { CSV_COLUMNS, MAX_IMPORT_ROWS } from "~/models/affiliates/csv-columns";

interface ImportAnswer extends Partial<ErrorBody> {
  ok?: boolean;
  importId?: string;
  errors?: { row: number; column: string; message: string }[];
}

interface ImportStatus {
  import: {
    id: string;
    status: "queued" | "running" | "done" | "failed";
    total: number;
    processed: number;
    imported: number;
    merged: number;
    refused: number;
    report: { row: number; outcome: "merged" | "refused"; column: string; message: string }[];
  };
}

// How often the dialog asks for the import's progress, and how many report lines it lists.
const POLL_MS = 1000;
const LISTED = 50;

/** CSV import: the upload queues a job; the dialog follows its progress, then shows its report. */
export function ImportAffiliatesModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const { role } = useParams();
  const fetcher = useFetcher<ImportAnswer>();
  const status = useFetcher<ImportStatus>();
  const revalidator = useRevalidator();
  const [file, setFile] = useState<File | null>(null);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const importId = answer?.ok ? answer.importId : undefined;
  // The last poll may be of an earlier import of this dialog.
  const job = importId && status.data?.import.id === importId ? status.data.import : undefined;
  const finished = job?.status === "done" || job?.status === "failed";

  useEffect(() => {
    if (!importId || finished) return;
    const url = `/${role}/affiliates/imports/${importId}`;
    if (status.state === "idle") {
      const timer = setTimeout(() => status.load(url), job ? POLL_MS : 0);
      return () => clearTimeout(timer);
    }
  }, [importId, finished, role, status, job]);

  // The list behind the dialog shows the new affiliates once the job is done,
  // and the file is let go: importing it again would only merge every row.
  useEffect(() => {
    if (job?.status !== "done") return;
    revalidator.revalidate();
    setFile(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per finished import
  }, [job?.status]);

  function submit() {
    if (!file) return;
    const form = new FormData();
    form.set("intent", "import");
    form.set("file", file);
    fetcher.submit(form, { method: "post", encType: "multipart/form-data" });
  }

  const percent = job && job.total ? Math.round((job.processed / job.total) * 100) : 0;
  const listed = job?.report.slice(0, LISTED) ?? [];
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t("import.title")}
      primaryAction={{
        content: t("import.submit"),
        onAction: submit,
        disabled: !file || (Boolean(importId) && !finished),
        loading: fetcher.state !== "idle" || (Boolean(importId) && !finished),
      }}
      secondaryActions={[{ content: t("close"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p">{t("import.help", { columns: CSV_COLUMNS.join(", "), max: MAX_IMPORT_ROWS })}</Text>
          {importId && !finished ? (
            <BlockStack gap="200">
              <Text as="p" data-testid="import-progress">
                {t("importJob.progress", { processed: job?.processed ?? 0, total: job?.total ?? 0 })}
              </Text>
              <ProgressBar progress={percent} tone="primary" />
            </BlockStack>
          ) : null}
          {job?.status === "failed" ? (
            <Banner tone="critical">
              <p>{t("importJob.failed", { processed: job.processed, total: job.total })}</p>
            </Banner>
          ) : null}
          {job?.status === "done" ? (
            <Banner tone={job.refused ? "warning" : "success"} title={t("importJob.done")}>
              <p data-testid="import-done">
                {t("importJob.counts", { imported: job.imported, merged: job.merged, refused: job.refused })}
              </p>
            </Banner>
          ) : null}
          {listed.length ? (
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                {job && job.report.length > LISTED
                  ? t("importJob.reportFirst", { count: LISTED, total: job.report.length })
                  : t("importJob.report")}
              </Text>
              <div data-testid="import-report">
                <DataTable
                  columnContentTypes={["numeric", "text", "text", "text"]}
                  headings={[t("import.row"), t("importJob.outcome"), t("import.column"), t("importJob.reason")]}
                  rows={listed.map((line) => [
                    line.row,
                    t(`importJob.outcomes.${line.outcome}`),
                    line.column,
                    translateMessage(t, line.message) ?? "",
                  ])}
                />
              </div>
            </BlockStack>
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
