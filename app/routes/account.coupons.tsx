import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { listCoupons } from "~/models/affiliate-account/account-data.server";
import { linkDiscount } from "~/models/affiliate-account/link-discount.server";
import { getPromoteLink } from "~/models/settings/promote-link.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Account.Common"], portal: true, title: "Account.Common:nav.coupons" };

// With Settings > Promote link's "apply the affiliate's discount" and codes
// hidden, the codes are not shown: the link applies the discount.
export const loader = /* @__PURE__ */ affiliateRoute({}, async ({ db, affiliate }) => {
  const discount = await linkDiscount(db, affiliate.id, await getPromoteLink(db));
  return {
    coupons: discount.showCodes ? await listCoupons(db, affiliate.id) : [],
    autoApply: Boolean(discount.code),
  };
});

export default function AccountCoupons() {
  const { coupons, autoApply } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Common");
  return (
    <AccountPage title={t("coupons.title")}>
      <Card>
        <BlockStack gap="300">
          {autoApply ? <Text as="p">{t("coupons.autoApply")}</Text> : null}
          {coupons.length || !autoApply ? (
            <Text as="p">{coupons.length ? t("coupons.text") : t("coupons.empty")}</Text>
          ) : null}
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
