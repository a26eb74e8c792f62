import { useParams } from "@remix-run/react";
import { BlockStack, Card, DataTable, Link, Text, type DataTableProps } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import type { DetailData } from "./AffiliateDetailView";
import { WrappingCell } from "../WrappingCell";

function RecentTable({ title, ...table }: { title: string } & Omit<DataTableProps, "footerContent">) {
  const { t } = useTranslation("Affiliates");
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <DataTable {...table} footerContent={table.rows.length ? undefined : t("detail.none")} />
      </BlockStack>
    </Card>
  );
}

/** An affiliate's latest sales, commissions and clicks (the newest few of each). */
export function AffiliateActivity({ data, timeZone }: { data: DetailData; timeZone: string }) {
  const when = (iso: string) => format.dateTime(iso, timeZone);
  const { t } = useTranslation(["Affiliates", "Global"]);
  const format = useFormat();
  const { role } = useParams();
  const money = data.money;
  return (
    <>
      {money ? (
        <>
          <RecentTable
            title={t("Affiliates:detail.recentSales")}
            columnContentTypes={["text", "text", "numeric", "text"]}
            headings={[
              t("Affiliates:detail.order"),
              t("Global:fields.dateCreated"),
              t("Affiliates:detail.subtotal"),
              t("Global:fields.status"),
            ]}
            rows={money.recentSales.map((s) => [
              <Link key={s.id} url={`/${role}/sales/${s.id}`}>
                {s.name}
              </Link>,
              when(s.placedAt),
              format.money(s.subtotal, s.currency),
              t(`Global:status.${s.status}`),
            ])}
          />
          <RecentTable
            title={t("Affiliates:detail.recentCommissions")}
            columnContentTypes={["text", "text", "numeric", "numeric", "text"]}
            headings={[
              t("Affiliates:detail.order"),
              t("Affiliates:detail.kind"),
              t("Affiliates:detail.level"),
              t("Affiliates:detail.amount"),
              t("Global:fields.status"),
            ]}
            rows={money.recentCommissions.map((c) => [
              c.order?.name ?? t("Affiliates:detail.bonusLine"),
              t(`Affiliates:detail.kinds.${c.kind}`),
              c.level,
              format.money(c.amount, c.currency),
              t(`Global:status.${c.status}`),
            ])}
          />
        </>
      ) : null}
      <RecentTable
        title={t("Affiliates:detail.recentClicks")}
        columnContentTypes={["text", "text", "text"]}
        headings={[t("Affiliates:detail.when"), t("Affiliates:detail.landing"), t("Affiliates:detail.referrer")]}
        rows={data.recentClicks.map((c) => [
          <span key="w" className="app-nowrap">
            {when(c.createdAt)}
          </span>,
          <WrappingCell key="l" text={c.landingUrl} />,
          <WrappingCell key="r" text={c.referrer ?? ""} />,
        ])}
      />
    </>
  );
}
