import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccountPage } from "~/components/portal/AccountPage";
import { FormField } from "~/components/portal/FormField";
import { getDb } from "~/db.server";
import { LANGUAGE_CODES, LANGUAGE_LABELS } from "~/i18n/languages";
import { AppError } from "~/lib/errors";
import { parseForm } from "~/lib/http.server";
import { accountContext } from "~/models/affiliate-account/account-loader.server";
import { startAffiliateSession } from "~/models/affiliate-account/affiliate-session.server";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from "~/models/auth/password.server";
import { portalFormAction, type PortalActionData } from "~/models/portal/form-action.server";

export const handle = { i18n: ["Account.Settings", "Account.Common"], portal: true };

const profileSchema = z.object({
  intent: z.literal("profile"),
  firstName: z.string().trim().min(1, "Enter your first name").max(80),
  lastName: z.string().trim().min(1, "Enter your last name").max(80),
  website: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Enter a full address starting with https://"),
  language: z.enum(["", ...LANGUAGE_CODES]),
});
const passwordSchema = z
  .object({
    intent: z.literal("password"),
    current: z.string().min(1, "Enter your current password").max(200),
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
      .max(PASSWORD_MAX_LENGTH),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The passwords do not match" });

export async function loader({ request }: LoaderFunctionArgs) {
  const { affiliate } = await accountContext(request);
  const saved = new URL(request.url).searchParams.get("saved");
  return json({
    profile: {
      firstName: affiliate.firstName,
      lastName: affiliate.lastName,
      email: affiliate.email,
      website: affiliate.website ?? "",
      language: affiliate.language ?? "",
    },
    saved,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { affiliate, shop } = await accountContext(request);
  return portalFormAction(request, async (form) => {
    if (form.intent === "password") {
      const input = await parseForm(request, passwordSchema);
      const row = await getDb().affiliate.findFirst({
        where: { id: affiliate.id, shopId: shop.id },
        select: { passwordHash: true },
      });
      if (!(await verifyPassword(row?.passwordHash, input.current))) {
        throw new AppError("validation_failed", "Some fields are not valid.", {
          fields: { current: "This is not your current password" },
        });
      }
      const passwordHash = await hashPassword(input.password);
      // A new password ends every other session; this browser gets a fresh one.
      await getDb().$transaction([
        getDb().affiliate.update({ where: { id: affiliate.id }, data: { passwordHash } }),
        getDb().affiliateSession.deleteMany({ where: { affiliateId: affiliate.id } }),
      ]);
      return redirect("/account/settings?saved=password", {
        headers: { "Set-Cookie": await startAffiliateSession(affiliate.id, shop.id) },
      });
    }
    const input = await parseForm(request, profileSchema);
    await getDb().affiliate.updateMany({
      where: { id: affiliate.id, shopId: shop.id },
      data: {
        firstName: input.firstName,
        lastName: input.lastName,
        website: input.website || null,
        language: input.language || null,
      },
    });
    return redirect("/account/settings?saved=profile");
  });
}

export default function AccountSettings() {
  const { profile, saved } = useLoaderData<typeof loader>();
  const data = useActionData<PortalActionData>();
  const { t } = useTranslation("Account.Settings");
  const f = data?.error?.fields ?? {};
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
                  ...LANGUAGE_CODES.map((c) => ({ value: c, label: LANGUAGE_LABELS[c] })),
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
