import { Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { displayZone } from "~/lib/shop-day";

/** "Times in Europe/Berlin": which zone the dates on this page are shown in. */
export function TimeZoneNote({ zone }: { zone: string }) {
  const { t } = useTranslation("Global");
  return (
    <Text as="p" variant="bodySm" tone="subdued">
      <span data-time-zone={displayZone(zone)}>{t("timeZoneNote", { zone: displayZone(zone) })}</span>
    </Text>
  );
}
