import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { affiliateRoute } from "~/door/affiliate-route.server";
import type { RouteHandle } from "~/i18n/route-handle";

// /account/contact-us (spec section 2): the affiliate writes to the store.
export const handle: RouteHandle = { i18n: ["Account.Common"], portal: true, title: "Account.Common:nav.contact" };

export const loader = /* @__PURE__ */ affiliateRoute({}, async ({ shop, affiliate }) => {
  const subject = `[${shop.name}] Affiliate ${affiliate.referralCode}`;
  return { email: shop.adminEmail, mailto: `mailto:${shop.adminEmail}?subject=${encodeURIComponent(subject)}` };
});

export default function AccountContact() {
  const { email, mailto } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Common");
  return (
    <AccountPage title={t("nav.contact")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{t("contact.text", { email })}</Text>
          <div>
            <Button url={mailto}>{t("contact.write")}</Button>
          </div>
        </BlockStack>
      </Card>
    </AccountPage>
  );
}
