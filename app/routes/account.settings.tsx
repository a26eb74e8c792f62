import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage } from "~/components/portal/AccountPage";
import { FormField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { PORTAL_LANGUAGES } from "~/i18n/language-table";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import { accountSettingsSchema, changePassword, saveProfile } from "~/models/affiliate-account/account-settings.server";
import { startAffiliateSession } from "~/models/affiliate-account/affiliate-session.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: ["Account.Settings", "Account.Common"],
  portal: true,
  title: "Account.Common:nav.settings",
};

const query = z.object({ saved: z.enum(["profile", "password"]).optional().catch(undefined) });

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ affiliate, query }) => ({
  profile: {
    firstName: affiliate.firstName,
    lastName: affiliate.lastName,
    email: affiliate.email,
    website: affiliate.website ?? "",
    language: affiliate.language ?? "",
  },
  saved: query.saved ?? null,
}));

export const action = /* @__PURE__ */ affiliateRoute(
  { body: accountSettingsSchema },
  async ({ request, db, affiliate, body }) => {
    if (body.intent === "password") {
      await changePassword(db, affiliate.id, body, clientAddress(request));
      // A new password ends every other session; this browser gets a fresh one.
      return redirect("/account/settings?saved=password", {
        headers: { "Set-Cookie": await startAffiliateSession(affiliate.id, db.$shopId) },
      });
    }
    await saveProfile(db, affiliate.id, body);
    return redirect("/account/settings?saved=profile");
  },
);

export default function AccountSettings() {
  const { profile, saved } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData>();
  const { t } = useTranslation("Account.Settings");
  const f = useTranslatedError(data?.error)?.fields ?? {};
  const v = { ...profile, ...(data?.values?.intent === "profile" ? data.values : {}) };
  return (
    <AccountPage title={t("title")}>
      {saved ? (
        <Banner tone="success">
          <p data-testid="settings-saved">{t("Account.Common:saved")}</p>
        </Banner>
      ) : null}
      <Card>
        <form method="post" action="/account/settings">
          <input type="hidden" name="intent" value="profile" />
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("profile")}
            </Text>
            <FormLayout>
              <FormLayout.Group>
                <FormField
                  name="firstName"
                  label={t("Account.Common:form.firstName")}
                  value={v.firstName}
                  error={f.firstName}
                />
                <FormField
                  name="lastName"
                  label={t("Account.Common:form.lastName")}
                  value={v.lastName}
                  error={f.lastName}
                />
              </FormLayout.Group>
              <Text as="p" tone="subdued">
                {t("emailFixed", { email: profile.email })}
              </Text>
              <FormField
                name="website"
                type="url"
                label={t("Account.Common:form.website")}
                value={v.website}
                error={f.website}
              />
              <Select
                label={t("language")}
                name="language"
                value={v.language}
                onChange={() => undefined}
                options={[
                  { value: "", label: t("languageShop") },
                  ...PORTAL_LANGUAGES.map((l) => ({ value: l.code, label: l.name })),
                ]}
              />
              <Button submit variant="primary">
                {t("Account.Common:save")}
              </Button>
            </FormLayout>
          </BlockStack>
        </form>
      </Card>
      <Card>
        <form method="post" action="/account/settings">
          <input type="hidden" name="intent" value="password" />
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("password")}
            </Text>
            <FormLayout>
              <FormField
                name="current"
                type="password"
                label={t("currentPassword")}
                error={f.current}
                autoComplete="current-password"
              />
              <FormField
                name="password"
                type="password"
                label={t("newPassword")}
                error={f.password}
                autoComplete="new-password"
              />
              <FormField
                name="confirm"
                type="password"
                label={t("confirmPassword")}
                error={f.confirm}
                autoComplete="new-password"
              />
              <Button submit>{t("changePassword")}</Button>
            </FormLayout>
          </BlockStack>
        </form>
      </Card>
    </AccountPage>
  );
}
