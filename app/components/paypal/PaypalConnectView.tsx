import { useFetcher, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  ChoiceList,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import type { PaypalConnectionView } from "~/models/paypal/paypal-connection.server";
import { FormErrorBanner } from "../FormErrorBanner";

interface Answer extends Partial<ErrorBody> {
  intent?: string;
  connection?: PaypalConnectionView;
}

/** /{role}/paypal/connect: the connected PayPal REST app, or the form that connects one. */
export function PaypalConnectView({
  connection,
  webhookUrl,
}: {
  connection: PaypalConnectionView;
  webhookUrl: string;
}) {
  const { t } = useTranslation(["Settings.Payment", "Global"]);
  const { role } = useParams();
  const fetcher = useFetcher<Answer>();
  const [editing, setEditing] = useState(!connection.connected);
  const [form, setForm] = useState({
    client_id: connection.client_id ?? "",
    client_secret: "",
    mode: connection.mode ?? "sandbox",
    webhook_id: connection.webhook_id ?? "",
  });
  const seen = useRef<Answer | undefined>(undefined);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || seen.current === fetcher.data) return;
    seen.current = fetcher.data;
    if (fetcher.data.error) return;
    // The secret is never kept in the page once PayPal accepted it.
    setForm((f) => ({ ...f, client_secret: "" }));
    setEditing(fetcher.data.intent === "disconnect");
  }, [fetcher.state, fetcher.data]);

  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  const fields = error?.fields ?? {};
  const set = (name: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
  const connect = () => fetcher.submit({ intent: "connect", ...form }, { method: "post" });
  const shown = fetcher.data?.connection && !fetcher.data.error ? fetcher.data.connection : connection;

  return (
    <Page
      title={t("Settings.Payment:paypalConnectTitle")}
      backAction={{ url: `/${role}/settings/payment` }}
      narrowWidth
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {shown.connected && !editing ? (
              <Card>
                <BlockStack gap="300">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      {t("Settings.Payment:paypal.connectedTitle")}
                    </Text>
                    <Badge tone={shown.mode === "live" ? "success" : "attention"}>
                      {t(`Settings.Payment:paypal.mode.${shown.mode ?? "sandbox"}`)}
                    </Badge>
                  </InlineStack>
                  <BlockStack gap="100">
                    <Row label={t("Settings.Payment:paypal.clientId")} value={shown.client_id ?? ""} />
                    <Row label={t("Settings.Payment:paypal.appId")} value={shown.app_id ?? "—"} />
                    <Row
                      label={t("Settings.Payment:paypal.verifiedAt")}
                      value={shown.verified_at ? new Date(shown.verified_at).toLocaleString() : "—"}
                    />
                    <Row label={t("Settings.Payment:paypal.webhookId")} value={shown.webhook_id ?? "—"} />
                  </BlockStack>
                  {!shown.payouts_scope ? (
                    <Banner tone="warning">
                      <p>{t("Settings.Payment:paypal.noPayoutsScope")}</p>
                    </Banner>
                  ) : null}
                  <InlineStack gap="200">
                    <Button onClick={() => setEditing(true)}>{t("Settings.Payment:paypal.replace")}</Button>
                    <Button
                      tone="critical"
                      loading={busy}
                      onClick={() => fetcher.submit({ intent: "disconnect" }, { method: "post" })}
                    >
                      {t("Settings.Payment:paypal.disconnect")}
                    </Button>
                  </InlineStack>
                </BlockStack>
              </Card>
            ) : (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t("Settings.Payment:paypal.formTitle")}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t("Settings.Payment:paypal.formHelp")}
                  </Text>
                  <FormErrorBanner error={error} />
                  <FormLayout>
                    <ChoiceList
                      title={t("Settings.Payment:paypal.modeLabel")}
                      choices={[
                        { label: t("Settings.Payment:paypal.mode.sandbox"), value: "sandbox" },
                        { label: t("Settings.Payment:paypal.mode.live"), value: "live" },
                      ]}
                      selected={[form.mode]}
                      onChange={(v) => set("mode")(v[0] ?? "sandbox")}
                      error={fields.mode}
                    />
                    <TextField
                      label={t("Settings.Payment:paypal.clientId")}
                      name="client_id"
                      autoComplete="off"
                      value={form.client_id}
                      onChange={set("client_id")}
                      error={fields.client_id}
                    />
                    <TextField
                      label={t("Settings.Payment:paypal.clientSecret")}
                      name="client_secret"
                      type="password"
                      autoComplete="new-password"
                      value={form.client_secret}
                      onChange={set("client_secret")}
                      helpText={shown.connected ? t("Settings.Payment:paypal.secretAgain") : undefined}
                      error={fields.client_secret}
                    />
                    <TextField
                      label={t("Settings.Payment:paypal.webhookId")}
                      name="webhook_id"
                      autoComplete="off"
                      value={form.webhook_id}
                      onChange={set("webhook_id")}
                      helpText={t("Settings.Payment:paypal.webhookHelp")}
                      error={fields.webhook_id}
                    />
                  </FormLayout>
                  <InlineStack gap="200">
                    <Button variant="primary" loading={busy} onClick={connect}>
                      {t("Settings.Payment:paypal.connect")}
                    </Button>
                    {shown.connected ? (
                      <Button onClick={() => setEditing(false)}>{t("Settings.Payment:paypal.cancel")}</Button>
                    ) : null}
                  </InlineStack>
                </BlockStack>
              </Card>
            )}
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("Settings.Payment:paypal.webhookTitle")}
                </Text>
                <Text as="p">{t("Settings.Payment:paypal.webhookBody")}</Text>
                <Box>
                  <TextField
                    label={t("Settings.Payment:paypal.webhookUrl")}
                    autoComplete="off"
                    readOnly
                    value={webhookUrl}
                    name="webhook_url"
                  />
                </Box>
                {connection.connected ? (
                  <InlineStack gap="300" blockAlign="center">
                    <Button
                      loading={busy}
                      onClick={() => fetcher.submit({ intent: "register-webhook" }, { method: "post" })}
                    >
                      {t("Settings.Payment:paypal.registerWebhook")}
                    </Button>
                    {connection.webhook_id ? (
                      <Text as="span" tone="subdued" id="paypal-webhook-id">
                        {t("Settings.Payment:paypal.webhookRegistered", { id: connection.webhook_id })}
                      </Text>
                    ) : null}
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <InlineStack gap="200" wrap={false}>
      <Box minWidth="140px">
        <Text as="span" tone="subdued">
          {label}
        </Text>
      </Box>
      <Text as="span" breakWord>
        {value}
      </Text>
    </InlineStack>
  );
}
