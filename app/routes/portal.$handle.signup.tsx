import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { SignupForm } from "~/components/portal/SignupForm";
import { PortalFormPage, PortalLayout } from "~/components/portal/PortalLayout";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { checkBody } from "~/door/door.server";
import { publicRoute } from "~/door/public-route.server";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import { emptyPage } from "~/lib/portal-content";
import { signupSchema, signUpAffiliate } from "~/models/affiliate-account/signup.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import { portalActionHeaders } from "~/models/portal/portal-headers.server";
import { loadPortalPage, portalHeaders } from "~/models/affiliate-account/portal-page-loader.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { portalShopTitle } from "~/i18n/page-title";

export const handle: RouteHandle = {
  i18n: ["Account.Common"],
  portal: true,
  title: portalShopTitle("Account.Common:signup.title"),
};
export const headers = portalActionHeaders;
// The recruit link's code (?ref=CODE), carried in the form.
const query = z.object({
  ref: z
    .string()
    .catch("")
    .transform((v) => v.slice(0, 64)),
  via: z.enum(["marketplace"]).optional().catch(undefined),
});

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page", query }, async ({ request, params, query }) => {
  const { ctx, page, chrome } = await loadPortalPage(request, params.handle, "signup");
  return json(
    { page, chrome, form: (page ?? emptyPage()).form, ref: query.ref, via: query.via ?? "" },
    { headers: await portalHeaders(ctx) },
  );
});

// The form's fields are the merchant's choice (optional fields, own
// questions), so the door reads the form as it is and the shop's schema
// checks it once the shop's form settings are loaded.
const anyForm = z.record(z.string(), z.unknown());

export const action = /* @__PURE__ */ publicRoute(
  { scheme: "page", body: anyForm },
  async ({ request, params, body }) => {
    const { page, db } = await loadPortalPage(request, params.handle, "signup");
    const form = (page ?? emptyPage()).form;
    const input = checkBody(signupSchema(form), { kind: "form", value: body });
    const result = await signUpAffiliate(db, form, input, clientAddress(request));
    return { done: true, status: result.status };
  },
);

export default function Signup() {
  const { page, chrome, form, ref, via } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData & { done?: boolean; status?: string }>();
  const { t } = useTranslation("Account.Common");
  const error = useTranslatedError(data?.error);
  const fields = error?.fields ?? {};
  if (data?.done) {
    return (
      <PortalLayout chrome={chrome} page={page}>
        <div className="portal-narrow">
          <Card>
            <BlockStack gap="300">
              <Text as="h1" variant="headingLg">
                {t("signup.doneTitle")}
              </Text>
              <p data-testid="signup-done">
                {data.status === "approved" ? t("signup.doneApproved") : t("signup.donePending")}
              </p>
              <Button url={`${chrome.base}/login${chrome.query}`} variant="primary">
                {t("signup.goToLogin")}
              </Button>
            </BlockStack>
          </Card>
        </div>
      </PortalLayout>
    );
  }
  return (
    <PortalFormPage chrome={chrome} page={page}>
      <SignupForm
        chrome={chrome}
        form={form}
        refCode={ref}
        via={via}
        values={data?.values}
        fields={fields}
        hasError={!!error}
        errorMessage={error?.fields ? t("form.fixFields") : error?.message}
      />
    </PortalFormPage>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
