import { redirect } from "@remix-run/node";
import { z } from "zod";
import { Form, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { AppError, type ErrorBody } from "~/lib/errors";
import { merchantRoute } from "~/door/merchant-route.server";
import { activatePlan } from "~/models/plans/activate-plan.server";
import { findPlan } from "~/models/plans/plans";

export const handle = { i18n: ["Plans"] };

const planQuery = z.object({ plan_id: z.string().max(64).optional() });

// GET shows what is about to happen; POST activates (no state change on GET).
export const loader = /* @__PURE__ */ merchantRoute({ area: "plans", query: planQuery }, async ({ query }) => {
  const plan = findPlan(query.plan_id);
  if (!plan) throw new AppError("not_found", "This plan does not exist.");
  return { plan };
});

const activateSchema = z.object({ plan_id: z.string({ required_error: "Choose a plan." }).max(64) });

export const action = /* @__PURE__ */ merchantRoute(
  { area: "plans", body: activateSchema },
  async ({ db, role, mode, body }) => {
    await activatePlan(db, body.plan_id, mode);
    return redirect(`/${role}/dashboard`);
  },
);

export default function ActivatePlan() {
  const { t } = useTranslation("Plans");
  const { plan } = useLoaderData<typeof loader>();
  const data = useActionData<ErrorBody>();
  const navigation = useNavigation();
  const { role } = useParams();
  return (
    <Page title={t("activateTitle")} backAction={{ url: `/${role}/plans` }}>
      <Card>
        <BlockStack gap="300">
          {data?.error ? (
            <Banner tone="critical">
              <p>{data.error.message}</p>
            </Banner>
          ) : null}
          <Text as="p">{t("activateBody", { plan: t(`plans.${plan.id}.name`) })}</Text>
          <Form method="post">
            <input type="hidden" name="plan_id" value={plan.id} />
            <InlineStack gap="200">
              <Button submit variant="primary" loading={navigation.state === "submitting"}>
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
