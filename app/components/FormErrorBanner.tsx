import { Banner } from "@shopify/polaris";
import type { ErrorBody } from "../lib/errors";

/** A form's error that belongs to no field (field errors show at their fields). */
export function FormErrorBanner({ error }: { error: ErrorBody["error"] | undefined }) {
  if (!error || error.fields) return null;
  return (
    <Banner tone="critical">
      <p>{error.message}</p>
    </Banner>
  );
}
