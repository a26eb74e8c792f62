import { FormLayout, TextField } from "@shopify/polaris";

type Changes = { since?: string | null; until?: string | null };

/** The texts of the filter, from each list's own namespace. */
export interface DateRangeLabels {
  date: string;
  since: string;
  until: string;
  applied: (since: string, until: string) => string;
}

/**
 * The "date" filter of the admin lists (sales, payouts, referral history):
 * two day fields and the applied-filter chip.
 */
export function dateRangeFilter(
  labels: DateRangeLabels,
  since: string,
  until: string,
  update: (changes: Changes) => void,
) {
  const filter = {
    key: "date",
    label: labels.date,
    filter: (
      <FormLayout>
        <TextField
          label={labels.since}
          type="date"
          autoComplete="off"
          value={since}
          onChange={(v) => update({ since: v || null })}
        />
        <TextField
          label={labels.until}
          type="date"
          autoComplete="off"
          value={until}
          onChange={(v) => update({ until: v || null })}
        />
      </FormLayout>
    ),
    shortcut: true,
  };
  const applied =
    since || until
      ? [
          {
            key: "date",
            label: labels.applied(since || "…", until || "…"),
            onRemove: () => update({ since: null, until: null }),
          },
        ]
      : [];
  return { filter, applied };
}
