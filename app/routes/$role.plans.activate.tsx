import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { AppError, errorBody, type ErrorBody } from "~/lib/errors";
import { notFound, requireMerchant } from "~/models/auth/require-merchant.server";
import { activatePlan } from "~/models/plans/activate-plan.server";
import { findPlan } from "~/models/plans/plans";

export const handle = { i18n: ["Plans"] };

// GET shows what is about to happen; POST activates (no state change on GET).
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireMerchant(request, params.role, { area: "plans" });
  const plan = findPlan(new URL(request.url).searchParams.get("plan_id"));
  if (!plan) throw notFound("This plan does not exist.");
  return json({ plan });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "plans" });
  const form = await request.formData().catch(() => new FormData());
  try {
    await activatePlan(ctx.shop.id, String(form.get("plan_id") ?? ""), ctx.mode);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body } = errorBody(error);
    return json(body, { status });
  }
  return redirect(`/${ctx.role}/dashboard`);
}

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
