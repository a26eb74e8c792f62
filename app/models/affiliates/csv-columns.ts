// The affiliate CSV's columns and limits, shared by the import form (browser)
// and the server. Export and import use the same columns, so an export can be
// edited and imported into another shop.

export const CSV_COLUMNS = [
  "email",
  "first_name",
  "last_name",
  "status",
  "campaign",
  "referral_code",
  "coupon_codes",
  "upline",
] as const;
// Written by the export, ignored by the import.
export const EXPORT_ONLY_COLUMNS = ["id", "created_at"] as const;
// The answers to the merchant's sign-up fields, one column each
// ("signup: <label>"): written by the export, ignored by the import.
export const SIGNUP_COLUMN_PREFIX = "signup: ";
export const REQUIRED_COLUMNS = ["email", "first_name"] as const;
export const MAX_IMPORT_ROWS = 5000;
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export type { ImportError } from "../csv/csv-table";
