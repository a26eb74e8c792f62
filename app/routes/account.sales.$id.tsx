import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, DataTable, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage, STATUS_TONE } from "~/components/portal/AccountPage";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { useFormat } from "~/i18n/format";
import { getAccountSale } from "~/models/affiliate-account/account-data.server";
import { accountContext } from "~/models/affiliate-account/account-loader.server";
import { portalNotFound } from "~/models/portal/portal-context.server";

export const handle = { i18n: ["Account.Sales", "Account.Common"], portal: true };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  const id = params.id ?? "";
  // Another affiliate's or shop's sale is not found, exactly like one that does not exist.
  const sale = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await getAccountSale(shop.id, affiliate.id, id) : null;
  if (!sale) throw portalNotFound();
  return json({ sale, format: shop.moneyFormat });
}

export default function AccountSale() {
  const { sale } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Sales");
  const format = useFormat();
  const m = (v: number) => format.money(v, sale.currency);
  return (
    <AccountPage title={t("detailTitle", { name: sale.name })}>
      <Card>
        <BlockStack gap="200">
          <InlineStack gap="200">
            <Text as="span">{t("status")}:</Text>
            <Badge tone={STATUS_TONE[sale.status]}>{t(`statuses.${sale.status}`)}</Badge>
          </InlineStack>
          <Text as="p">
            {t("date")}: {format.date(sale.placedAt, "UTC")}
          </Text>
          <Text as="p">
            {t("amount")}: {m(sale.subtotal)}
          </Text>
          {sale.refundedAmount ? (
            <Text as="p">
              {t("refunded")}: {m(sale.refundedAmount)}
            </Text>
          ) : null}
        </BlockStack>
      </Card>
      <Card padding="0">
        <DataTable
          columnContentTypes={["text", "text", "numeric", "text"]}
          headings={[t("date"), t("kind"), t("commission"), t("status")]}
          rows={sale.commissions.map((c) => [
            c.createdAt.slice(0, 10),
            t(`kinds.${c.kind}`),
            m(c.amount),
            t(`statuses.${c.status}`),
          ])}
        />
      </Card>
      <a href="/account/sales">{t("back")}</a>
    </AccountPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
