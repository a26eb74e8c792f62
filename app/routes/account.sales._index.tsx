import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Card, DataTable, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage, STATUS_TONE } from "~/components/portal/AccountPage";
import { useFormat } from "~/i18n/format";
import { listAccountSales, SALES_PAGE } from "~/models/affiliate-account/account-data.server";
import { accountContext } from "~/models/affiliate-account/account-loader.server";

export const handle = { i18n: ["Account.Sales", "Account.Common"], portal: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  const raw = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(raw) && raw >= 1 && raw <= 100_000 ? raw : 1;
  const { total, sales } = await listAccountSales(shop.id, affiliate.id, page);
  return json({ page, pages: Math.max(1, Math.ceil(total / SALES_PAGE)), sales, money: { format: shop.moneyFormat } });
}

export default function AccountSales() {
  const { page, pages, sales } = useLoaderData<typeof loader>();
  const format = useFormat();
  const { t } = useTranslation("Account.Sales");
  return (
    <AccountPage title={t("title")}>
      <Card padding="0">
        {sales.length === 0 ? (
          <div style={{ padding: 16 }}>
            <Text as="p">{t("empty")}</Text>
          </div>
        ) : (
          <DataTable
            columnContentTypes={["text", "text", "numeric", "numeric", "text"]}
            headings={[t("order"), t("date"), t("amount"), t("commission"), t("status")]}
            rows={sales.map((s) => [
              <a key="o" href={`/account/sales/${s.id}`} data-testid="sale-link">
                {s.name}
              </a>,
              format.date(s.placedAt, "UTC"),
              format.money(s.subtotal, s.currency),
              format.money(s.commission, s.currency),
              <Badge key="s" tone={STATUS_TONE[s.status]}>
                {t(`statuses.${s.status}`)}
              </Badge>,
            ])}
          />
        )}
      </Card>
      {pages > 1 ? (
        <InlineStack gap="300">
          {page > 1 ? <a href={`/account/sales?page=${page - 1}`}>{t("previous")}</a> : null}
          <Text as="span">{t("pageOf", { page, pages })}</Text>
          {page < pages ? <a href={`/account/sales?page=${page + 1}`}>{t("next")}</a> : null}
        </InlineStack>
      ) : null}
    </AccountPage>
  );
}
