import { Banner, DataTable } from "@shopify/polaris";
import type { ImportError } from "~/models/csv/csv-table";

/** The row-by-row report of a refused CSV import (every import: affiliates, paid payouts). */
export function ImportReport({
  errors,
  title,
  headings,
}: {
  errors: ImportError[] | undefined;
  title: string;
  /** Row, column, problem. */
  headings: [string, string, string];
}) {
  if (!errors?.length) return null;
  return (
    <Banner tone="critical" title={title}>
      <div data-testid="import-report">
        <DataTable
          columnContentTypes={["numeric", "text", "text"]}
          headings={headings}
          rows={errors.map((e) => [e.row, e.column, e.message])}
        />
      </div>
    </Banner>
  );
}
