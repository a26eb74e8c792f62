import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { getDb } from "~/db.server";
import { AppError, errorBody, type ErrorBody } from "~/lib/errors";
import { parseForm } from "~/lib/http.server";
import { findUserForToken, setPasswordSchema, setPasswordWithToken } from "~/models/auth/password-token.server";
import { startMerchantSession } from "~/models/auth/user-session.server";

export const meta: MetaFunction = () => [{ title: "Set your password" }];
export const handle = { i18n: ["Global"] };

// A staff invite (or reset) link: /staff/get-password?token=...
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const user = token.length >= 20 && token.length <= 200 ? await findUserForToken(token) : null;
  return json({ token: user ? token : null, email: user?.email ?? null, name: user?.name ?? null });
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    const input = await parseForm(request, setPasswordSchema);
    const userId = await setPasswordWithToken(input.token, input.password);
    const user = await findRole(userId);
    return redirect(`/${user}/dashboard`, { headers: { "Set-Cookie": await startMerchantSession(userId) } });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body } = errorBody(error);
    return json(body, { status });
  }
}

async function findRole(userId: string) {
  const user = await getDb().user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } });
  return user.role === "admin" ? "admin" : "staff";
}

export default function GetPassword() {
  const { t } = useTranslation("Global");
  const { token, email, name } = useLoaderData<typeof loader>();
  const data = useActionData<ErrorBody>();
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const fields = data?.error?.fields ?? {};
  return (
    <div className="app-login">
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
    </div>
  );
}
