import { redirect } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, List, Page, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { AppError, type ErrorBody } from "~/lib/errors";
import { keptParams } from "~/lib/embedded-params";
import { useFormat } from "~/i18n/format";
import { merchantRoute } from "~/door/merchant-route.server";
import { activatePlan, confirmSubscription } from "~/models/plans/activate-plan.server";
import { planChangeConsequences } from "~/models/plans/plan-usage.server";
import { findPlan, priceOf } from "~/models/plans/plans";
import { useShell } from "./$role";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Plans"], title: "Plans:activateTitle" };

const interval = z.enum(["monthly", "yearly"]).default("monthly");
const planQuery = z.object({
  plan_id: z.string().max(64).optional(),
  interval: interval.optional(),
  // Shopify adds charge_id when it sends the merchant back from the confirmation page.
  charge_id: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
});

// GET shows what is about to happen; POST activates. The one GET that
// changes the plan is the return from Shopify's confirmation page, and it only
// records what Shopify says is already approved.
export const loader = /* @__PURE__ */ merchantRoute(
  { area: "plans", query: planQuery, writeOnRead: "Shopify Billing's return" },
  async ({ db, shop, role, query, request }) => {
    const plan = findPlan(query.plan_id);
    if (!plan) throw new AppError("not_found", "This plan does not exist.");
    if (query.charge_id) {
      await confirmSubscription(db, { planId: plan.id, domain: shop.domain, chargeId: query.charge_id });
      const kept = keptParams(new URL(request.url));
      return redirect(`/${role}/dashboard${kept ? `?${kept}` : ""}`);
    }
    const consequences = shop.pricingPlan ? await planChangeConsequences(db, shop.pricingPlan, plan.id) : [];
    return { plan, interval: query.interval ?? "monthly", consequences };
  },
);

const activateSchema = z.object({
  plan_id: z.string({ required_error: "Choose a plan." }).max(64),
  interval,
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "plans", body: activateSchema },
  async ({ db, role, mode, shop, host, body, request }) => {
    const result = await activatePlan(db, {
      planId: body.plan_id,
      interval: body.interval,
      mode,
      domain: shop.domain,
      host,
      currentSubscriptionId: shop.billingSubscriptionId,
    });
    if (result.kind === "confirm") return { confirmationUrl: result.confirmationUrl };
    const kept = keptParams(new URL(request.url));
    return redirect(`/${role}/dashboard${kept ? `?${kept}` : ""}`);
  },
);

export default function ActivatePlan() {
  const { t } = useTranslation("Plans");
  const format = useFormat();
  const { plan, interval, consequences } = useLoaderData<typeof loader>();
  const data = useActionData<Partial<ErrorBody> & { confirmationUrl?: string }>();
  const navigation = useNavigation();
  const { role } = useParams();
  const { mode } = useShell();
  const confirmationUrl = data?.confirmationUrl;
  useEffect(() => {
    // Shopify's confirmation page cannot be framed: App Bridge opens "_top" in the admin window.
    if (confirmationUrl) window.open(confirmationUrl, "_top");
  }, [confirmationUrl]);
  const price = priceOf(plan, interval);
  return (
    <Page title={t("activateTitle")} backAction={{ url: `/${role}/plans` }}>
      <Card>
        <BlockStack gap="300">
          {data?.error ? (
            <Banner tone="critical">
              <p>{data.error.message}</p>
            </Banner>
          ) : null}
          {confirmationUrl ? <Banner tone="info" title={t("redirecting")} /> : null}
          <Text as="p">{t("activateBody", { plan: t(`plans.${plan.id}.name`) })}</Text>
          {consequences.length ? (
            <div id="plan-consequences">
              <Banner tone="warning" title={t("consequences.title", { plan: t(`plans.${plan.id}.name`) })}>
                <List>
                  {consequences.map((c) => (
                    <List.Item key={c.key}>
                      {t(`consequences.${c.key}`, {
                        ...Object.fromEntries(Object.entries(c.values).map(([k, v]) => [k, format.number(v)])),
                      })}
                    </List.Item>
                  ))}
                </List>
                <Text as="p">{t("consequences.kept")}</Text>
              </Banner>
            </div>
          ) : null}
          {/* Only an embedded shop pays through Shopify; a standalone one is never billed (docs/decisions/029). */}
          {mode === "standalone" ? (
            <Text as="p" tone="subdued">
              {t("standaloneNoCharge")}
            </Text>
          ) : price > 0 ? (
            <Text as="p" tone="subdued">
              {t(interval === "yearly" ? "chargeYearly" : "chargeMonthly", {
                price: format.money(price, "USD"),
                days: plan.trialDays,
              })}
            </Text>
          ) : null}
          <Form method="post">
            <input type="hidden" name="plan_id" value={plan.id} />
            <input type="hidden" name="interval" value={interval} />
            <InlineStack gap="200">
              <Button submit variant="primary" loading={navigation.state === "submitting" || !!confirmationUrl}>
                {t("activate")}
              </Button>
            </InlineStack>
          </Form>
        </BlockStack>
      </Card>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
