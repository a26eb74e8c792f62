import { Page, type PageProps } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { displayZone } from "~/lib/shop-day";

/**
 * The page a list screen sits on. Every list has the width of every other
 * admin page (Polaris's centred column, not `fullWidth`): the table scrolls
 * sideways inside its card when its columns need more. Its dates are the
 * shop's, which the subtitle says.
 */
export function ListPage({ timeZone, ...props }: Omit<PageProps, "fullWidth" | "subtitle"> & { timeZone: string }) {
  const { t } = useTranslation("Global");
  return <Page {...props} subtitle={t("Global:timeZoneNote", { zone: displayZone(timeZone) })} />;
}
