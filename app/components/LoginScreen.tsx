import { useTranslatedError } from "../i18n/messages";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ErrorBody } from "../lib/errors";

export function LoginScreen({ title, footer }: { title: string; footer?: React.ReactNode }) {
  const { t } = useTranslation("Global");
  const data = useActionData<ErrorBody>();
  const error = useTranslatedError(data?.error);
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const fields = error?.fields ?? {};
  return (
    <main className="app-login">
      <Card>
        <Form method="post">
          <BlockStack gap="400">
            <Text as="h1" variant="headingLg">
              {title}
            </Text>
            {error && !error.fields ? (
              <Banner tone="critical">
                <p data-testid="login-error">{error.message}</p>
              </Banner>
            ) : null}
            <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
            <FormLayout>
              <TextField
                label={t("login.email")}
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={setEmail}
                error={fields.email}
              />
              <TextField
                label={t("login.password")}
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={setPassword}
                error={fields.password}
              />
              <Button submit variant="primary" fullWidth loading={navigation.state === "submitting"}>
                {t("login.submit")}
              </Button>
            </FormLayout>
            {footer}
          </BlockStack>
        </Form>
      </Card>
    </main>
  );
}
