import { useFetcher, useParams, useRevalidator } from "@remix-run/react";
import { BlockStack, DropZone, Modal, Select, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ErrorBody } from "~/lib/errors";
import type { ImportJobView } from "~/models/csv/import-job";
import { ImportJobProgress, LISTED_REPORT_LINES, useImportJob } from "../csv/ImportJobProgress";
import { ImportReport } from "../csv/ImportReport";
import { FormErrorBanner } from "../FormErrorBanner";
import { CSV_COLUMNS, MAX_IMPORT_ROWS } from "~/models/affiliates/csv-columns";
import { APP_FORMAT_SPECS, APP_NAMES, IMPORT_FORMATS, type ImportFormat } from "~/models/affiliates/app-import-formats";

/** The header names an app's export is read by, first name of each field. */
const appColumns = (format: Exclude<ImportFormat, "csv">) =>
  Object.values(APP_FORMAT_SPECS[format].columns)
    .map((names) => names[0])
    .join(", ");

interface ImportAnswer extends Partial<ErrorBody> {
  ok?: boolean;
  importId?: string;
  errors?: { row: number; column: string; message: string }[];
}

interface ImportStatus extends ImportJobView {
  imported: number;
  merged: number;
  refused: number;
}

/** CSV import: the upload queues a job; the dialog follows its progress, then shows its report. */
export function ImportAffiliatesModal({
  open,
  onClose,
  initialFormat = "csv",
}: {
  open: boolean;
  onClose: () => void;
  /** The source chosen when the dialog opens ("Import from another app" opens it on an app). */
  initialFormat?: ImportFormat;
}) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const { role } = useParams();
  const fetcher = useFetcher<ImportAnswer>();
  const revalidator = useRevalidator();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat>(initialFormat);
  // Each opening starts from the button's choice.
  useEffect(() => {
    if (open) setFormat(initialFormat);
  }, [open, initialFormat]);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const importId = answer?.ok ? answer.importId : undefined;
  const { job, running } = useImportJob<ImportStatus>(
    importId,
    importId ? `/${role}/affiliates/imports/${importId}` : undefined,
  );

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
    form.set("format", format);
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
        disabled: !file || running,
        loading: fetcher.state !== "idle" || running,
      }}
      secondaryActions={[{ content: t("close"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <Select
            label={t("import.source")}
            options={IMPORT_FORMATS.map((f) => ({
              value: f,
              label: f === "csv" ? t("import.ownFormat") : t("import.fromApp", { app: APP_NAMES[f] }),
            }))}
            value={format}
            onChange={(value) => setFormat(value as ImportFormat)}
            disabled={running}
          />
          <Text as="p">
            {format === "csv"
              ? t("import.help", { columns: CSV_COLUMNS.join(", "), max: MAX_IMPORT_ROWS })
              : t("import.appHelp", { app: APP_NAMES[format], columns: appColumns(format), max: MAX_IMPORT_ROWS })}
          </Text>
          <ImportJobProgress
            job={job}
            running={running}
            warn={Boolean(job?.refused)}
            labels={{
              progress: t("importJob.progress", { processed: job?.processed ?? 0, total: job?.total ?? 0 }),
              failed: t("importJob.failed", { processed: job?.processed ?? 0, total: job?.total ?? 0 }),
              done: t("importJob.done"),
              counts: t("importJob.counts", {
                imported: job?.imported ?? 0,
                merged: job?.merged ?? 0,
                refused: job?.refused ?? 0,
              }),
              report: t("importJob.report"),
              reportFirst: t("importJob.reportFirst", { count: LISTED_REPORT_LINES, total: job?.report.length ?? 0 }),
              headings: [t("import.row"), t("importJob.outcome"), t("import.column"), t("importJob.reason")],
              outcome: (outcome) => t(`importJob.outcomes.${outcome}`),
            }}
          />
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
