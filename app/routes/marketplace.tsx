import { Form, useLoaderData } from "@remix-run/react";
import { BlockStack, Box, Button, Card, InlineStack, Page, Select, Text, TextField, Thumbnail } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { publicRoute } from "~/door/public-route.server";
import { MARKETPLACE_CATEGORIES, marketplaceQuerySchema } from "~/models/marketplace/listing-form";
import { publicMarketplace } from "~/models/marketplace/public-marketplace.server";
import type { RouteHandle } from "~/i18n/route-handle";

// The public marketplace of this installation: the programs merchants opted
// into, searchable by text and category, a server page at a time. "Apply"
// opens that shop's sign-up, marked as coming from here (so it waits for review).
export const handle: RouteHandle = {
  i18n: ["Account.Common", "Global"],
  portal: true,
  title: "Account.Common:marketplace.title",
};
export const loader = /* @__PURE__ */ publicRoute(
  { scheme: "page", query: marketplaceQuerySchema },
  async ({ query }) => ({
    ...(await publicMarketplace(query)),
    q: query.q,
    category: query.category ?? "",
  }),
);

function pageHref(q: string, category: string, page: number) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (category) params.set("category", category);
  if (page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `/marketplace?${s}` : "/marketplace";
}

export default function Marketplace() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Account.Common", "Global"]);
  const [q, setQ] = useState(data.q);
  const [category, setCategory] = useState(data.category);
  const categoryLabel = (c: string) => t(`marketplace.categories.${c}`);
  return (
    <main>
      <Page title={t("marketplace.title")}>
        <BlockStack gap="400">
          <Card>
            <Form method="get" action="/marketplace">
              <InlineStack gap="300" blockAlign="end" wrap>
                <Box minWidth="260px">
                  <TextField label={t("marketplace.search")} name="q" autoComplete="off" value={q} onChange={setQ} />
                </Box>
                <Select
                  label={t("marketplace.category")}
                  name="category"
                  options={[
                    { value: "", label: t("marketplace.allCategories") },
                    ...MARKETPLACE_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) })),
                  ]}
                  value={category}
                  onChange={setCategory}
                />
                <Button submit>{t("marketplace.search")}</Button>
              </InlineStack>
            </Form>
          </Card>
          {data.cards.length === 0 ? (
            <Card>
              <Text as="p" tone="subdued">
                {t("marketplace.empty")}
              </Text>
            </Card>
          ) : (
            data.cards.map((card) => (
              <Card key={card.handle}>
                <InlineStack gap="400" blockAlign="start" wrap={false}>
                  {card.logoUrl ? <Thumbnail source={card.logoUrl} alt={card.shopName} size="large" /> : null}
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      {card.title}
                    </Text>
                    <Text as="p" tone="subdued">
                      {card.shopName} · {categoryLabel(card.category)}
                    </Text>
                    <Text as="p">{card.description}</Text>
                    <Text as="p" fontWeight="semibold">
                      {card.commissionSummary}
                    </Text>
                    <div>
                      <Button variant="primary" url={`/portal/${card.handle}/signup?via=marketplace`}>
                        {t("portal.apply")}
                      </Button>
                    </div>
                  </BlockStack>
                </InlineStack>
              </Card>
            ))
          )}
          {data.hasPrevious || data.hasNext ? (
            <InlineStack gap="300" align="center">
              <Button url={pageHref(data.q, data.category, data.page - 1)} disabled={!data.hasPrevious}>
                {t("marketplace.previous")}
              </Button>
              <Button url={pageHref(data.q, data.category, data.page + 1)} disabled={!data.hasNext}>
                {t("marketplace.next")}
              </Button>
            </InlineStack>
          ) : null}
        </BlockStack>
      </Page>
    </main>
  );
}

export { PortalErrorBoundary as ErrorBoundary };
