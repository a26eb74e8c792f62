import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import type { ErrorBody } from "~/lib/errors";
import { findUserForToken, setPasswordSchema, setPasswordWithToken } from "~/models/auth/password-token.server";
import { startMerchantSession } from "~/models/auth/user-session.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Global"], title: "Global:getPassword.title" };

// A staff invite (or reset) link: /staff/get-password?token=... A token that
// cannot be one is not an error: the page says the link is not valid.
const query = z.object({ token: z.string().min(20).max(200).nullable().catch(null) });

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page", query }, async ({ query }) => {
  const user = query.token ? await findUserForToken(query.token) : null;
  return { token: user ? query.token : null, email: user?.email ?? null, name: user?.name ?? null };
});

export const action = /* @__PURE__ */ publicRoute({ scheme: "page", body: setPasswordSchema }, async ({ body }) => {
  const { userId, role } = await setPasswordWithToken(body.token, body.password);
  return redirect(`/${role}/dashboard`, { headers: { "Set-Cookie": await startMerchantSession(userId) } });
});

export default function GetPassword() {
  const { t } = useTranslation("Global");
  const { token, email, name } = useLoaderData<typeof loader>();
  const data = useActionData<ErrorBody>();
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const fields = data?.error?.fields ?? {};
  return (
    <main className="app-login">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("getPassword.title")}
          </Text>
          {!token ? (
            <Banner tone="warning">
              <p data-testid="invalid-link">{t("getPassword.invalid")}</p>
            </Banner>
          ) : (
            <Form method="post">
              <BlockStack gap="400">
                <Text as="p">{t("getPassword.intro", { name, email })}</Text>
                {data?.error && !data.error.fields ? (
                  <Banner tone="critical">
                    <p>{data.error.message}</p>
                  </Banner>
                ) : null}
                <input type="hidden" name="token" value={token} />
                <FormLayout>
                  <TextField
                    label={t("getPassword.password")}
                    name="password"
                    type="password"
                    autoComplete="new-password"
                    value={password}
                    onChange={setPassword}
                    error={fields.password}
                    helpText={t("getPassword.rules")}
                  />
                  <TextField
                    label={t("getPassword.confirm")}
                    name="confirm"
                    type="password"
                    autoComplete="new-password"
                    value={confirm}
                    onChange={setConfirm}
                    error={fields.confirm}
                  />
                  <Button submit variant="primary" fullWidth loading={navigation.state === "submitting"}>
                    {t("getPassword.submit")}
                  </Button>
                </FormLayout>
              </BlockStack>
            </Form>
          )}
        </BlockStack>
      </Card>
    </main>
  );
}
