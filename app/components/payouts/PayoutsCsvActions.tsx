import { useFetcher, useParams, useRevalidator } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  ButtonGroup,
  ChoiceList,
  DropZone,
  InlineStack,
  Modal,
  Text,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import type { ImportError } from "~/models/csv/csv-table";
import type { ImportJobView } from "~/models/csv/import-job";
import {
  MAX_PAID_IMPORT_ROWS,
  PAID_IMPORT_COLUMNS,
  PAYOUT_CSV_FORMATS,
  type PayoutCsvFormat,
} from "~/models/payouts/csv/payout-csv-columns";
import { downloadFile } from "../affiliates/download-file";
import { useFetcherResult } from "../list/useFetcherResult";
import { ImportJobProgress, LISTED_REPORT_LINES, useImportJob } from "../csv/ImportJobProgress";
import { ImportReport } from "../csv/ImportReport";
import { FormErrorBanner } from "../FormErrorBanner";

// Paying by hand with files, on the payouts list: export the selected pending
// payouts (they move to Processing as one CSV payment, then the file
// downloads), and import the plain file back with references to mark them
// paid. The export shows a button's spinner while the server works; the
// import runs as a job with a progress bar and a report, as the affiliates
// import does.

interface ExportAnswer extends Partial<ErrorBody> {
  batchId?: string;
  format?: PayoutCsvFormat;
  count?: number;
}

interface ImportAnswer extends Partial<ErrorBody> {
  ok?: boolean;
  importId?: string;
  errors?: ImportError[];
}

const FORMAT_LABEL = {
  paypal: "csv.formatPaypal",
  wise: "csv.formatWise",
  plain: "csv.formatPlain",
} as const;
const FORMAT_SHORT = {
  paypal: "csv.formatPaypalShort",
  wise: "csv.formatWiseShort",
  plain: "csv.formatPlainShort",
} as const;

export function PayoutsCsvActions({
  selectedIds,
  exportable,
  onExported,
}: {
  selectedIds: string[];
  /** The list shows pending payouts (the only ones a file can pay). */
  exportable: boolean;
  onExported?: () => void;
}) {
  const { t } = useTranslation("Payouts");
  const { role } = useParams();
  const base = `/${role}/payouts`;
  const [exportOpen, setExportOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  return (
    <>
      <ButtonGroup>
        {exportable ? (
          <Button disabled={!selectedIds.length} onClick={() => setExportOpen(true)}>
            {t("csv.exportButton")}
          </Button>
        ) : null}
        <Button onClick={() => setImportOpen(true)}>{t("csv.importButton")}</Button>
      </ButtonGroup>
      {/* Mounted while open: each opening starts with a fresh form. */}
      {exportOpen ? (
        <ExportModal
          base={base}
          selectedIds={selectedIds}
          onExported={onExported}
          onClose={() => setExportOpen(false)}
        />
      ) : null}
      {importOpen ? <ImportModal base={base} onClose={() => setImportOpen(false)} /> : null}
    </>
  );
}

function ExportModal({
  base,
  selectedIds,
  onExported,
  onClose,
}: {
  base: string;
  selectedIds: string[];
  onExported?: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("Payouts");
  const exporter = useFetcher<ExportAnswer>();
  const [ids] = useState(selectedIds);
  const [format, setFormat] = useState<PayoutCsvFormat>("plain");
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const exported = exporter.state === "idle" ? exporter.data : undefined;
  const exportError = useTranslatedError(exported?.error);

  function download(batchId: string, as: PayoutCsvFormat) {
    setDownloading(true);
    void downloadFile(`${base}/export?batch=${encodeURIComponent(batchId)}&format=${as}`)
      .then(
        (ok) => setDownloadFailed(!ok),
        () => setDownloadFailed(true),
      )
      .finally(() => setDownloading(false));
  }

  const batchId = exported?.batchId;
  // The CSV payment exists: its file downloads at once, once per answer.
  useFetcherResult(exporter, (answer) => {
    if (!answer.batchId || !answer.format) return;
    download(answer.batchId, answer.format);
    onExported?.();
  });

  return (
    <Modal
      open
      onClose={onClose}
      title={t("csv.exportTitle")}
      primaryAction={
        batchId
          ? undefined
          : {
              content: t("csv.exportSubmit"),
              onAction: () =>
                exporter.submit({ ids: ids.join(","), format }, { method: "post", action: `${base}/export` }),
              disabled: !ids.length,
              loading: exporter.state !== "idle",
            }
      }
      secondaryActions={[{ content: t("csv.close"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          {batchId ? (
            <Banner tone="success">
              <BlockStack gap="200">
                <p data-testid="csv-exported">{t("csv.exported", { count: exported?.count ?? 0 })}</p>
                <InlineStack gap="200" blockAlign="center">
                  <Text as="span">{t("csv.downloadAgain")}</Text>
                  {PAYOUT_CSV_FORMATS.map((f) => (
                    <Button key={f} variant="plain" disabled={downloading} onClick={() => download(batchId, f)}>
                      {t(FORMAT_SHORT[f])}
                    </Button>
                  ))}
                </InlineStack>
              </BlockStack>
            </Banner>
          ) : (
            <>
              <Text as="p">{t("csv.exportHelp", { count: ids.length })}</Text>
              <ChoiceList
                title={t("csv.format")}
                choices={PAYOUT_CSV_FORMATS.map((f) => ({ value: f, label: t(FORMAT_LABEL[f]) }))}
                selected={[format]}
                onChange={(values) => setFormat((values[0] as PayoutCsvFormat | undefined) ?? "plain")}
              />
            </>
          )}
          {downloadFailed ? (
            <Banner tone="critical">
              <p>{t("csv.downloadFailed")}</p>
            </Banner>
          ) : null}
          <FormErrorBanner error={exportError} />
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

interface PaidImportStatus extends ImportJobView {
  paid: number;
  alreadyPaid: number;
  refused: number;
}

function ImportModal({ base, onClose }: { base: string; onClose: () => void }) {
  const { t } = useTranslation("Payouts");
  const importer = useFetcher<ImportAnswer>();
  const revalidator = useRevalidator();
  const [file, setFile] = useState<File | null>(null);
  const imported = importer.state === "idle" ? importer.data : undefined;
  const importError = useTranslatedError(imported?.error);
  const importId = imported?.ok ? imported.importId : undefined;
  const { job, running } = useImportJob<PaidImportStatus>(
    importId,
    importId ? `${base}/imports/${importId}` : undefined,
  );

  // The list behind the dialog shows the payouts paid once the job is done.
  useEffect(() => {
    if (job?.status !== "done") return;
    revalidator.revalidate();
    setFile(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per finished import
  }, [job?.status]);

  function startImport() {
    if (!file) return;
    const form = new FormData();
    form.set("file", file);
    importer.submit(form, { method: "post", action: `${base}/import`, encType: "multipart/form-data" });
  }

  const progress = { processed: job?.processed ?? 0, total: job?.total ?? 0 };
  return (
    <Modal
      open
      onClose={onClose}
      title={t("csv.importTitle")}
      primaryAction={{
        content: t("csv.importSubmit"),
        onAction: startImport,
        disabled: !file || running,
        loading: importer.state !== "idle" || running,
      }}
      secondaryActions={[{ content: t("csv.close"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <Text as="p">
            {t("csv.importHelp", { columns: PAID_IMPORT_COLUMNS.join(", "), max: MAX_PAID_IMPORT_ROWS })}
          </Text>
          <ImportJobProgress
            job={job}
            running={running}
            warn={Boolean(job?.refused)}
            labels={{
              progress: t("paidImport.progress", progress),
              failed: t("paidImport.failed", progress),
              done: t("paidImport.done"),
              counts: t("paidImport.counts", {
                paid: job?.paid ?? 0,
                alreadyPaid: job?.alreadyPaid ?? 0,
                refused: job?.refused ?? 0,
              }),
              report: t("paidImport.report"),
              reportFirst: t("paidImport.reportFirst", { count: LISTED_REPORT_LINES, total: job?.report.length ?? 0 }),
              headings: [t("csv.row"), t("paidImport.outcome"), t("csv.column"), t("paidImport.reason")],
              outcome: (outcome) => t(`paidImport.outcomes.${outcome}`),
            }}
          />
          <FormErrorBanner error={importError} />
          <ImportReport
            errors={imported?.errors}
            title={t("csv.importFailed", { count: imported?.errors?.length ?? 0 })}
            headings={[t("csv.row"), t("csv.column"), t("csv.problem")]}
          />
          <DropZone
            accept=".csv,text/csv"
            type="file"
            allowMultiple={false}
            onDrop={(files) => setFile(files[0] ?? null)}
            label={t("csv.importFile")}
          >
            {file ? (
              <Text as="p" alignment="center">
                {file.name}
              </Text>
            ) : (
              <DropZone.FileUpload actionHint={t("csv.importHint")} />
            )}
          </DropZone>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

/** The file of a CSV payment, again, in any format (on a payout paid by CSV). */
export function CsvBatchDownload({ batchId }: { batchId: string }) {
  const { t } = useTranslation("Payouts");
  const { role } = useParams();
  const [downloading, setDownloading] = useState(false);
  const [failed, setFailed] = useState(false);
  function download(format: PayoutCsvFormat) {
    setDownloading(true);
    void downloadFile(`/${role}/payouts/export?batch=${encodeURIComponent(batchId)}&format=${format}`)
      .then(
        (ok) => setFailed(!ok),
        () => setFailed(true),
      )
      .finally(() => setDownloading(false));
  }
  return (
    <BlockStack gap="200">
      <InlineStack gap="200" blockAlign="center">
        <Text as="span">{t("csv.downloadAgain")}</Text>
        {PAYOUT_CSV_FORMATS.map((f) => (
          <Button key={f} variant="plain" disabled={downloading} onClick={() => download(f)}>
            {t(FORMAT_SHORT[f])}
          </Button>
        ))}
      </InlineStack>
      {failed ? (
        <Text as="p" tone="critical">
          {t("csv.downloadFailed")}
        </Text>
      ) : null}
    </BlockStack>
  );
}
