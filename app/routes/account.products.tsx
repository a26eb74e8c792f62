import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Text, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { affiliateLink } from "~/lib/affiliate-links";
import { listProducts } from "~/models/affiliate-account/account-data.server";
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
  const products = await listProducts(db, query.q);
  return {
    q: query.q,
    products: products.map((p) => ({
      ...p,
      link: affiliateLink(appUrl, affiliate.referralCode, shop.domain, `/products/${p.handle}`),
    })),
  };
});

export default function AccountProducts() {
  const { q, products } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Products");
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
              {p.imageUrl ? (
                <img src={p.imageUrl} alt="" width={64} height={64} style={{ objectFit: "cover", borderRadius: 8 }} />
              ) : null}
              <div style={{ flex: 1 }} data-testid="product">
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {p.title}
                  </Text>
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
