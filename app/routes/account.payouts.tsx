import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, DataTable, FormLayout, InlineGrid, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage, STATUS_TONE } from "~/components/portal/AccountPage";
import { FormField } from "~/components/portal/FormField";
import { getDb } from "~/db.server";
import { parseForm } from "~/lib/http.server";
import { useFormat } from "~/i18n/format";
import { accountBalance, listAccountPayouts } from "~/models/affiliate-account/account-data.server";
import { accountContext } from "~/models/affiliate-account/account-loader.server";
import { portalFormAction, type PortalActionData } from "~/models/portal/form-action.server";

export const handle = { i18n: ["Account.Payouts", "Account.Common"], portal: true };

const methodSchema = z.object({
  paypalEmail: z.string().trim().toLowerCase().email("Enter a valid PayPal e-mail address").max(254),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  const [balance, payouts] = await Promise.all([
    accountBalance(shop.id, affiliate.id),
    listAccountPayouts(shop.id, affiliate.id),
  ]);
  const saved = new URL(request.url).searchParams.get("saved") === "1";
  return json({
    balance,
    payouts,
    paypalEmail: affiliate.paypalEmail ?? "",
    money: { currency: shop.currency, format: shop.moneyFormat },
    saved,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  return portalFormAction(request, async () => {
    const { paypalEmail } = await parseForm(request, methodSchema);
    await getDb().affiliate.updateMany({ where: { id: affiliate.id, shopId: shop.id }, data: { paypalEmail } });
    return redirect("/account/payouts?saved=1");
  });
}

export default function AccountPayouts() {
  const { balance, payouts, paypalEmail, money, saved } = useLoaderData<typeof loader>();
  const data = useActionData<PortalActionData>();
  const { t } = useTranslation("Account.Payouts");
  const format = useFormat();
  const m = (v: number, currency = money.currency) => format.money(v, currency);
  return (
    <AccountPage title={t("title")}>
      <InlineGrid columns={2} gap="400">
        <Card>
          <Text as="h2" tone="subdued">
            {t("balance")}
          </Text>
          <Text as="p" variant="headingLg" id="payout-balance">
            {m(balance.approved)}
          </Text>
        </Card>
        <Card>
          <Text as="h2" tone="subdued">
            {t("pendingApproval")}
          </Text>
          <Text as="p" variant="headingLg" id="payout-pending">
            {m(balance.pending)}
          </Text>
        </Card>
      </InlineGrid>
      <Card>
        <form method="post" action="/account/payouts">
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("method")}
            </Text>
            <Text as="p">{t("methodPaypal")}</Text>
            {saved ? (
              <Banner tone="success">
                <p>{t("Account.Common:saved")}</p>
              </Banner>
            ) : null}
            <FormLayout>
              <FormField
                name="paypalEmail"
                type="email"
                label={t("paypalEmail")}
                value={data?.values?.paypalEmail ?? paypalEmail}
                error={data?.error?.fields?.paypalEmail}
              />
              <Button submit variant="primary">
                {t("Account.Common:save")}
              </Button>
            </FormLayout>
          </BlockStack>
        </form>
      </Card>
      <Card padding="0">
        {payouts.length === 0 ? (
          <div style={{ padding: 16 }}>
            <Text as="p">{t("empty")}</Text>
          </div>
        ) : (
          <DataTable
            columnContentTypes={["text", "numeric", "text", "text", "text"]}
            headings={[t("date"), t("amount"), t("methodColumn"), t("reference"), t("status")]}
            rows={payouts.map((p) => [
              format.date(p.paidAt ?? p.createdAt, "UTC"),
              m(p.amount, p.currency),
              t(`methods.${p.method}`),
              p.reference ?? "",
              <Badge key="s" tone={STATUS_TONE[p.status]}>
                {t(`statuses.${p.status}`)}
              </Badge>,
            ])}
          />
        )}
      </Card>
    </AccountPage>
  );
}
