import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { listCoupons } from "~/models/affiliate-account/account-data.server";
import { accountContext } from "~/models/affiliate-account/account-loader.server";

export const handle = { i18n: ["Account.Common"], portal: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  return json({ coupons: await listCoupons(shop.id, affiliate.id) });
}

export default function AccountCoupons() {
  const { coupons } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Common");
  return (
    <AccountPage title={t("coupons.title")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{coupons.length ? t("coupons.text") : t("coupons.empty")}</Text>
          {coupons.map((c) => (
            <CopyField
              key={c.code}
              label={t("coupons.code")}
              value={c.code}
              copyLabel={t("copy")}
              copiedLabel={t("copied")}
            />
          ))}
        </BlockStack>
      </Card>
    </AccountPage>
  );
}
