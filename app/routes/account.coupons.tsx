import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { listCoupons } from "~/models/affiliate-account/account-data.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Account.Common"], portal: true, title: "Account.Common:nav.coupons" };

export const loader = /* @__PURE__ */ affiliateRoute({}, async ({ db, affiliate }) => ({
  coupons: await listCoupons(db, affiliate.id),
}));

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
