import { FormLayout, TextField } from "@shopify/polaris";
import type { TFunction } from "i18next";

type Update = (changes: { since: string | null; until: string | null }) => void;

/**
 * The "date" filter of the admin lists (sales, payouts, referral history):
 * two day fields and the applied-filter chip. Each list's namespace holds
 * its own `filters.date`, `filters.since`, `filters.until` and
 * `filters.dateApplied` texts.
 */
export function dateRangeFilter(
  t: TFunction,
  since: string,
  until: string,
  update: (changes: Partial<Parameters<Update>[0]>) => void,
) {
  const filter = {
    key: "date",
    label: t("filters.date"),
    filter: (
      <FormLayout>
        <TextField
          label={t("filters.since")}
          type="date"
          autoComplete="off"
          value={since}
          onChange={(v) => update({ since: v || null })}
        />
        <TextField
          label={t("filters.until")}
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
            label: t("filters.dateApplied", { since: since || "…", until: until || "…" }),
            onRemove: () => update({ since: null, until: null }),
          },
        ]
      : [];
  return { filter, applied };
}
