// The shape of a CSV import run as a job, as the server stores it and the
// screens show it (affiliates, paid payouts). No server code: the dialogs
// import it.

/** One row of an import's report: what became of it, and why. */
export interface ImportReportLine {
  row: number;
  /** The import's own outcome names ("merged", "refused", "alreadyPaid", …). */
  outcome: string;
  column: string;
  /** A translation key with its values (msg()), or the file reader's text. */
  message: string;
}

/** What an import's status endpoint answers: its progress, its counts (named by the import) and its report. */
export interface ImportJobView {
  id: string;
  status: "queued" | "running" | "done" | "failed";
  total: number;
  processed: number;
  report: ImportReportLine[];
}
