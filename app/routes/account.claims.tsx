import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, DataTable, FormLayout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage, useAccountTimeZone } from "~/components/portal/AccountPage";
import { AccountPageErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { FormField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { useFormat } from "~/i18n/format";
import { useTranslatedError } from "~/i18n/messages";
import type { RouteHandle } from "~/i18n/route-handle";
import { AppError, type FormActionData } from "~/lib/errors";
import { currencyExponent } from "~/lib/money";
import { claimFormSchema, claimTerms } from "~/models/claims/claim-input";
import { fileClaim, listAffiliateClaims } from "~/models/claims/file-claim.server";

// /account/claims: the affiliate claims an order that was not credited to
// them (its number and the customer's e-mail, or its date and total), and
// sees their claims and the shop's answers. The merchant decides in
// /admin/sales/claims.

export const handle: RouteHandle = {
  i18n: ["Account.Sales", "Account.Common"],
  portal: true,
  title: "Account.Sales:claims.title",
};

const query = z.object({ sent: z.literal("1").optional().catch(undefined) });

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, query }) => ({
  claims: await listAffiliateClaims(db, affiliate.id),
  currency: shop.currency,
  sent: query.sent === "1",
}));

export const action = /* @__PURE__ */ affiliateRoute(
  { body: claimFormSchema },
  async ({ db, affiliate, shop, body }) => {
    const terms = claimTerms(body, currencyExponent(shop.currency));
    if (!terms.ok)
      throw new AppError("validation_failed", "Some fields are not valid.", {
        fields: { [terms.field]: terms.message },
      });
    await fileClaim(db, { timezone: shop.timezone, currency: shop.currency }, affiliate.id, terms.terms);
    return redirect("/account/claims?sent=1");
  },
);

const TONE = { open: "attention", approved: "success", declined: "critical" } as const;

export default function AccountClaims() {
  const { claims, currency, sent } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData>();
  const { t } = useTranslation("Account.Sales");
  const format = useFormat();
  const zone = useAccountTimeZone();
  const error = useTranslatedError(data?.error);
  const f = error?.fields ?? {};
  const v = data?.values ?? {};
  return (
    <AccountPage title={t("claims.title")}>
      {sent ? (
        <Banner tone="success">
          <p data-testid="claim-sent">{t("claims.sent")}</p>
        </Banner>
      ) : null}
      {error && !error.fields ? (
        <Banner tone="critical">
          <p data-testid="claim-error">{error.message}</p>
        </Banner>
      ) : null}
      <Card>
        <form method="post" action="/account/claims" id="claim-form">
          <BlockStack gap="300">
            <Text as="p">{t("claims.help")}</Text>
            <FormLayout>
              <FormLayout.Group>
                <FormField name="orderNumber" label={t("claims.number")} value={v.orderNumber} error={f.orderNumber} />
                <FormField name="email" type="email" label={t("claims.email")} value={v.email} error={f.email} />
              </FormLayout.Group>
              <FormLayout.Group>
                <FormField name="day" type="date" label={t("claims.day")} value={v.day} error={f.day} />
                <FormField
                  name="amount"
                  label={`${t("claims.amount")} (${currency})`}
                  value={v.amount}
                  error={f.amount}
                />
              </FormLayout.Group>
              <Button submit variant="primary">
                {t("claims.submit")}
              </Button>
            </FormLayout>
          </BlockStack>
        </form>
      </Card>
      {claims.length ? (
        <Card padding="0">
          <div data-testid="my-claims">
            <DataTable
              columnContentTypes={["text", "text", "text", "text"]}
              headings={[t("date"), t("order"), t("status"), ""]}
              rows={claims.map((c) => [
                format.date(c.createdAt, zone),
                c.orderNumber ??
                  [c.orderDay, c.amount !== null && c.currency ? format.money(c.amount, c.currency) : ""]
                    .filter(Boolean)
                    .join(", "),
                <Badge key="s" tone={TONE[c.status as keyof typeof TONE]}>
                  {t(`claims.statuses.${c.status as keyof typeof TONE}`)}
                </Badge>,
                <span key="n" style={{ whiteSpace: "normal" }}>
                  {c.declineNote ?? ""}
                </span>,
              ])}
            />
          </div>
        </Card>
      ) : null}
      <a href="/account/sales">{t("back")}</a>
    </AccountPage>
  );
}

export const ErrorBoundary = AccountPageErrorBoundary;
