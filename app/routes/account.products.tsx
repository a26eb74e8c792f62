import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Text, TextField, Thumbnail } from "@shopify/polaris";
import { ImageIcon } from "@shopify/polaris-icons";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { affiliateLink } from "~/lib/affiliate-links";
import { listProductsWithCommission } from "~/models/affiliate-account/account-data.server";
import { useFormat } from "~/i18n/format";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: ["Account.Products", "Account.Common"],
  portal: true,
  title: "Account.Common:nav.products",
};

// A search longer than any title is cut, not refused.
const query = z.object({
  q: z
    .string()
    .catch("")
    .transform((v) => v.trim().slice(0, 100)),
});

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, appUrl, query }) => {
  const products = await listProductsWithCommission(db, affiliate, shop.currency, query.q);
  return {
    q: query.q,
    currency: shop.currency,
    products: products.map((p) => ({
      ...p,
      link: affiliateLink(appUrl, affiliate.referralCode, shop.domain, `/products/${p.handle}`),
    })),
  };
});

export default function AccountProducts() {
  const { q, currency, products } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Products");
  const format = useFormat();
  const money = (minor: number) => format.money(minor, currency);
  return (
    <AccountPage title={t("title")}>
      <form method="get" action="/account/products">
        <InlineStack gap="200" blockAlign="end">
          <TextField label={t("search")} name="q" value={q} onChange={() => undefined} autoComplete="off" />
          <Button submit>{t("searchButton")}</Button>
        </InlineStack>
      </form>
      {products.length === 0 ? (
        <Card>
          <Text as="p">{q ? t("noMatch") : t("empty")}</Text>
        </Card>
      ) : (
        products.map((p) => (
          <Card key={p.id}>
            <InlineStack gap="400" blockAlign="center" wrap={false}>
              <Thumbnail source={p.imageUrl ?? ImageIcon} alt="" size="large" />
              <div style={{ flex: 1, minWidth: 0 }} data-testid="product">
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd" breakWord>
                    {p.title}
                  </Text>
                  <InlineStack gap="200" blockAlign="center">
                    {p.price === null ? null : (
                      <span data-testid="product-price">
                        <Text as="span" variant="bodyLg" fontWeight="semibold">
                          {money(p.price)}
                        </Text>
                      </span>
                    )}
                    {p.commission?.excluded ? (
                      <Badge tone="attention">{t("excluded")}</Badge>
                    ) : p.commission?.amount != null ? (
                      <Badge tone="success">{t("youEarn", { amount: money(p.commission.amount) })}</Badge>
                    ) : null}
                  </InlineStack>
                  {p.commission?.newCustomerAmount != null ? (
                    <Text as="p" tone="subdued">
                      {t("youEarnNew", { amount: money(p.commission.newCustomerAmount) })}
                    </Text>
                  ) : null}
                  <CopyField
                    label={t("link")}
                    value={p.link}
                    copyLabel={t("Account.Common:copy")}
                    copiedLabel={t("Account.Common:copied")}
                  />
                </BlockStack>
              </div>
            </InlineStack>
          </Card>
        ))
      )}
    </AccountPage>
  );
}
