import type { RouteHandle } from "~/i18n/route-handle";
import { Form, useLoaderData, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  Divider,
  Icon,
  InlineGrid,
  InlineStack,
  Page,
  Text,
} from "@shopify/polaris";
import { CheckIcon, XSmallIcon } from "@shopify/polaris-icons";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { useFormat } from "~/i18n/format";
import { withParam } from "~/lib/embedded-params";
import { merchantRoute } from "~/door/merchant-route.server";
import { forbidden } from "~/models/auth/require-merchant.server";
import { PLAN_FEATURES, PLANS, priceOf, type Plan } from "~/models/plans/plans";

export const handle: RouteHandle = { i18n: ["Plans"], title: "Plans:title" };

const plansQuery = z.object({
  interval: z.enum(["monthly", "yearly"]).optional(),
  installing: z.string().max(8).optional(),
  upgrade: z.enum(PLAN_FEATURES).optional(),
});

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "any", query: plansQuery },
  async ({ shop, user, mode }) => {
    const waiting = shop.needSelectPlan !== null;
    // Plans are the admin's; staff only see that the admin must choose one.
    if (user.role === "staff") {
      if (!waiting) throw forbidden("/staff/dashboard");
      return { staffWaiting: true, current: null, mode, plans: [] as Plan[] };
    }
    return { staffWaiting: false, current: waiting ? null : shop.pricingPlan, mode, plans: [...PLANS] as Plan[] };
  },
);

export default function Plans() {
  const { t } = useTranslation("Plans");
  const format = useFormat();
  const { staffWaiting, current, plans, mode } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  if (staffWaiting) {
    return (
      <Page title={t("title")}>
        <Banner tone="warning" title={t("staffWaiting")} />
      </Page>
    );
  }
  const interval = params.get("interval") === "yearly" ? "yearly" : "monthly";
  const upgrade = params.get("upgrade");
  const here = new URL(`http://x/?${params.toString()}`);
  const intervalLink = (value: string) => withParam(params.toString(), "interval", value);
  return (
    <Page title={t("title")} subtitle={t("subtitle")}>
      <BlockStack gap="400">
        {params.get("installing") === "1" ? <Banner tone="info" title={t("installing")} /> : null}
        {upgrade && (PLAN_FEATURES as readonly string[]).includes(upgrade) ? (
          <Banner tone="warning" title={t("upgradeFor", { feature: t(`features.${upgrade}`) })} />
        ) : null}
        {mode === "standalone" ? (
          <Text as="p" tone="subdued">
            {t("standaloneNoCharge")}
          </Text>
        ) : null}
        <InlineStack align="center">
          <ButtonGroup variant="segmented">
            <Button pressed={interval === "monthly"} url={intervalLink("monthly")}>
              {t("monthly")}
            </Button>
            <Button pressed={interval === "yearly"} url={intervalLink("yearly")}>
              {t("yearly")}
            </Button>
          </ButtonGroup>
        </InlineStack>
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
          {plans.map((plan) => {
            const price = priceOf(plan, interval);
            return (
              <Card key={plan.id}>
                <BlockStack gap="300">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      {t(`plans.${plan.id}.name`)}
                    </Text>
                    {current === plan.id ? <Badge tone="success">{t("current")}</Badge> : null}
                  </InlineStack>
                  <Text as="p" variant="headingXl">
                    {price === 0
                      ? t("free")
                      : t(interval === "yearly" ? "perYear" : "perMonth", { price: format.money(price, "USD") })}
                  </Text>
                  <Text as="p" tone="subdued">
                    {plan.trialDays > 0 ? t("trial", { days: plan.trialDays }) : t("noCard")}
                  </Text>
                  <Text as="p">{t(`plans.${plan.id}.description`)}</Text>
                  <Divider />
                  <BlockStack gap="100">
                    <Text as="p">
                      {plan.limits.affiliates === null
                        ? t("unlimitedAffiliates")
                        : t("affiliateLimit", { limit: format.number(plan.limits.affiliates) })}
                    </Text>
                    <Text as="p">
                      {plan.limits.campaigns === null
                        ? t("unlimitedCampaigns")
                        : t("campaignLimit", { limit: format.number(plan.limits.campaigns) })}
                    </Text>
                    {PLAN_FEATURES.map((feature) => {
                      const has = plan.features.includes(feature);
                      return (
                        <InlineStack key={feature} gap="100" blockAlign="center" wrap={false}>
                          <Box>
                            <Icon source={has ? CheckIcon : XSmallIcon} tone={has ? "success" : "subdued"} />
                          </Box>
                          <Text as="span" tone={has ? undefined : "subdued"}>
                            {t(`features.${feature}`)}
                          </Text>
                        </InlineStack>
                      );
                    })}
                  </BlockStack>
                  <Form method="get" action="activate">
                    <input type="hidden" name="plan_id" value={plan.id} />
                    <input type="hidden" name="interval" value={interval} />
                    {[...here.searchParams.entries()]
                      .filter(([k]) => k === "host" || k === "shop" || k === "embedded")
                      .map(([k, v]) => (
                        <input key={k} type="hidden" name={k} value={v} />
                      ))}
                    <Button
                      submit
                      disabled={current === plan.id}
                      variant={plan.id === "growth" ? "primary" : undefined}
                      accessibilityLabel={t("chooseNamed", { plan: t(`plans.${plan.id}.name`) })}
                    >
                      {t("choose")}
                    </Button>
                  </Form>
                </BlockStack>
              </Card>
            );
          })}
        </InlineGrid>
        <Text as="p" tone="subdued" alignment="center">
          {t("flat")}
        </Text>
      </BlockStack>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
