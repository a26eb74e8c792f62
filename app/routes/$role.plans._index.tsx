import { Form, useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { useFormat } from "~/i18n/format";
import { merchantRoute } from "~/door/merchant-route.server";
import { forbidden } from "~/models/auth/require-merchant.server";
import { PLANS } from "~/models/plans/plans";

export const handle = { i18n: ["Plans"] };

export const loader = /* @__PURE__ */ merchantRoute({ area: "any" }, async ({ shop, user }) => {
  const waiting = shop.needSelectPlan !== null;
  // Plans are the admin's; staff only see that the admin must choose one.
  if (user.role === "staff") {
    if (!waiting) throw forbidden("/staff/dashboard");
    return { staffWaiting: true, current: null, plans: [] as (typeof PLANS)[number][] };
  }
  return { staffWaiting: false, current: shop.pricingPlan, plans: [...PLANS] };
});

export default function Plans() {
  const { t } = useTranslation("Plans");
  const format = useFormat();
  const { staffWaiting, current, plans } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  if (staffWaiting) {
    return (
      <Page title={t("title")}>
        <Banner tone="warning" title={t("staffWaiting")} />
      </Page>
    );
  }
  return (
    <Page title={t("title")}>
      <BlockStack gap="400">
        {params.get("installing") === "1" ? <Banner tone="info" title={t("installing")} /> : null}
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
          {plans.map((plan) => (
            <Card key={plan.id}>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t(`plans.${plan.id}.name`)}{" "}
                  {current === plan.id ? <Badge tone="success">{t("current")}</Badge> : null}
                </Text>
                <Text as="p" variant="headingXl">
                  {plan.price === 0 ? t("free") : t("perMonth", { price: format.money(plan.price, "USD") })}
                </Text>
                <Text as="p" tone="subdued">
                  {t(`plans.${plan.id}.description`)}
                </Text>
                <Form method="get" action="activate">
                  <input type="hidden" name="plan_id" value={plan.id} />
                  <Button submit disabled={current === plan.id} variant={plan.id === "growth" ? "primary" : undefined}>
                    {t("choose")}
                  </Button>
                </Form>
              </BlockStack>
            </Card>
          ))}
        </InlineGrid>
      </BlockStack>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
