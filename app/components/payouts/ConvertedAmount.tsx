import { BlockStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import type { ConvertedView } from "~/models/payouts/converted-view";

/** The amount a payout pays in the affiliate's currency, the rate, who entered it and when (ADR 052). */
export function ConvertedAmount({
  converted,
  from,
  timeZone,
  id,
}: {
  converted: ConvertedView;
  from: string;
  timeZone: string;
  id?: string;
}) {
  const { t } = useTranslation("Payouts");
  const format = useFormat();
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" id={id}>
        {t("converted.amount", {
          amount: format.money(converted.amount, converted.currency),
          from,
          to: converted.currency,
          rate: format.number(Number(converted.rate), { maximumFractionDigits: 8 }),
        })}
      </Text>
      <Text as="span" variant="bodySm" tone="subdued">
        {t("converted.source", {
          by: converted.by ?? t("converted.merchant"),
          date: format.dateTime(converted.at, timeZone),
        })}
      </Text>
    </BlockStack>
  );
}
