import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, DataTable, ProgressBar, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "~/i18n/messages";
import type { ImportJobView } from "~/models/csv/import-job";

// What the CSV import dialogs share once the file is uploaded (affiliates,
// paid payouts): following the import's job by polling its status endpoint
// (a GET that only reads), its progress bar, and its report. The words are
// the dialog's own (its namespace), passed in.

// How often a dialog asks for its import's progress, and how many report lines it lists.
const POLL_MS = 1000;
const LISTED = 50;

/** The import's latest status while `importId` runs, polled from `url`; undefined before the first answer. */
export function useImportJob<V extends ImportJobView>(importId: string | undefined, url: string | undefined) {
  const status = useFetcher<{ import: ImportJobView }>();
  // The last poll may be of an earlier import of this dialog. V: the
  // endpoint's own counts, which this hook passes through unread.
  const job = (importId && status.data?.import.id === importId ? status.data.import : undefined) as V | undefined;
  const finished = job?.status === "done" || job?.status === "failed";
  useEffect(() => {
    if (!importId || !url || finished || status.state !== "idle") return;
    const timer = setTimeout(() => status.load(url), job ? POLL_MS : 0);
    return () => clearTimeout(timer);
  }, [importId, url, finished, status, job]);
  return { job, running: Boolean(importId) && !finished };
}

export interface ImportJobLabels {
  progress: string;
  failed: string;
  done: string;
  /** The counts of a finished import, in the dialog's words. */
  counts: string;
  report: string;
  reportFirst: string;
  headings: [string, string, string, string];
  outcome: (outcome: string) => string;
}

/** Progress while the job runs, then its outcome and the first report lines. */
export function ImportJobProgress({
  job,
  running,
  labels,
  warn,
}: {
  job: ImportJobView | undefined;
  running: boolean;
  labels: ImportJobLabels;
  /** The finished import refused rows: its banner warns. */
  warn: boolean;
}) {
  const { t } = useTranslation();
  const percent = job && job.total ? Math.round((job.processed / job.total) * 100) : 0;
  const listed = job?.report.slice(0, LISTED) ?? [];
  return (
    <>
      {running ? (
        <BlockStack gap="200">
          <Text as="p" data-testid="import-progress">
            {labels.progress}
          </Text>
          <ProgressBar progress={percent} tone="primary" />
        </BlockStack>
      ) : null}
      {job?.status === "failed" ? (
        <Banner tone="critical">
          <p>{labels.failed}</p>
        </Banner>
      ) : null}
      {job?.status === "done" ? (
        <Banner tone={warn ? "warning" : "success"} title={labels.done}>
          <p data-testid="import-done">{labels.counts}</p>
        </Banner>
      ) : null}
      {listed.length ? (
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {job && job.report.length > LISTED ? labels.reportFirst : labels.report}
          </Text>
          <div data-testid="import-report">
            <DataTable
              columnContentTypes={["numeric", "text", "text", "text"]}
              headings={labels.headings}
              rows={listed.map((line) => [
                line.row,
                labels.outcome(line.outcome),
                line.column,
                translateMessage(t, line.message) ?? "",
              ])}
            />
          </div>
        </BlockStack>
      ) : null}
    </>
  );
}

export const LISTED_REPORT_LINES = LISTED;
