import { useFetcher, useParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineGrid,
  InlineStack,
  Link,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { keyedErrorMap, translateMessage, useTranslatedError } from "~/i18n/messages";
import { fieldErrorsFromZod, type ErrorBody } from "~/lib/errors";
import type { integrationsOverview } from "~/models/webhooks-out/integrations-screen.server";
import { WEBHOOK_EVENT_TYPES, webhookEndpointSchema } from "~/models/webhooks-out/webhook-endpoint-form";
import { FormErrorBanner } from "../FormErrorBanner";
import { TimeZoneNote } from "../TimeZoneNote";
import { WebhookSecretBanner } from "./WebhookSecretBanner";

type Overview = Awaited<ReturnType<typeof integrationsOverview>>;
type ActionResult = { intent?: string; endpointId?: string; secret?: string } & Partial<ErrorBody>;

const EMPTY = { url: "", description: "", event_types: [] as string[] };

export function EndpointStatusBadge({ enabled, disabledReason }: { enabled: boolean; disabledReason: string | null }) {
  const { t } = useTranslation("Settings.Integrations");
  if (enabled) return <Badge tone="success">{t("status.enabled")}</Badge>;
  if (disabledReason === "failing") return <Badge tone="critical">{t("status.failing")}</Badge>;
  return <Badge>{t("status.disabled")}</Badge>;
}

/** Settings > Integrations: the endpoint list and the form that adds one. */
export function IntegrationsView({ data }: { data: Overview }) {
  const { t } = useTranslation(["Settings.Integrations", "Global"]);
  const { role } = useParams();
  const format = useFormat();
  const fetcher = useFetcher<ActionResult>();
  const [values, setValues] = useState(EMPTY);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.intent === "create" && fetcher.data.secret) {
      setSecret(fetcher.data.secret);
      setValues(EMPTY);
    }
  }, [fetcher.state, fetcher.data]);
  const serverError = useTranslatedError(fetcher.data?.error);
  const errorFor = (field: string) => translateMessage(t, clientErrors[field]) ?? serverError?.fields?.[field];

  function add() {
    const payload = { intent: "create", ...values };
    const parsed = webhookEndpointSchema.safeParse(values, { errorMap: keyedErrorMap });
    if (!parsed.success) {
      setClientErrors(fieldErrorsFromZod(parsed.error.issues));
      return;
    }
    setClientErrors({});
    fetcher.submit(payload, { method: "post", encType: "application/json" });
  }
  const toggleType = (type: string, on: boolean) =>
    setValues((v) => ({
      ...v,
      event_types: on ? [...v.event_types, type] : v.event_types.filter((x) => x !== type),
    }));

  return (
    <Page title={t("title")} backAction={{ url: `/${role}/settings` }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("intro")}
        </Text>
        {secret ? <WebhookSecretBanner secret={secret} onDismiss={() => setSecret(null)} /> : null}
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("endpoints")}
            </Text>
            {data.endpoints.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("noEndpoints")}
              </Text>
            ) : (
              <BlockStack gap="0">
                {data.endpoints.map((e, index) => (
                  <Box
                    key={e.id}
                    paddingBlock="300"
                    borderBlockStartWidth={index === 0 ? undefined : "025"}
                    borderColor="border"
                  >
                    <InlineStack align="space-between" blockAlign="center" gap="300" wrap={false}>
                      <BlockStack gap="100">
                        <Link url={`/${role}/settings/integrations/${e.id}`} removeUnderline>
                          <Text as="span" fontWeight="semibold" breakWord>
                            {e.url}
                          </Text>
                        </Link>
                        {e.description ? (
                          <Text as="span" tone="subdued">
                            {e.description}
                          </Text>
                        ) : null}
                        <Text as="span" variant="bodySm" tone="subdued">
                          {t("eventCount", { count: e.eventTypes.length })}
                          {" · "}
                          {e.lastDelivery
                            ? t("lastDelivery", {
                                status: t(`deliveryStatus.${e.lastDelivery.status}`),
                                at: format.dateTime(e.lastDelivery.at, data.timeZone),
                              })
                            : t("noDeliveries")}
                        </Text>
                      </BlockStack>
                      <EndpointStatusBadge enabled={e.enabled} disabledReason={e.disabledReason} />
                    </InlineStack>
                  </Box>
                ))}
              </BlockStack>
            )}
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("add.title")}
            </Text>
            <FormErrorBanner error={serverError} />
            <FormLayout>
              <TextField
                label={t("add.url")}
                type="url"
                autoComplete="off"
                placeholder="https://example.com/webhooks"
                value={values.url}
                onChange={(url) => setValues((v) => ({ ...v, url }))}
                helpText={t("add.urlHelp")}
                error={errorFor("url")}
              />
              <TextField
                label={t("add.description")}
                autoComplete="off"
                value={values.description}
                onChange={(description) => setValues((v) => ({ ...v, description }))}
                error={errorFor("description")}
              />
              <BlockStack gap="100">
                <Text as="p" fontWeight="medium">
                  {t("add.events")}
                </Text>
                <InlineGrid columns={{ xs: 1, md: 2 }} gap="100">
                  {WEBHOOK_EVENT_TYPES.map((type) => (
                    <Checkbox
                      key={type}
                      label={<code>{type}</code>}
                      helpText={t(`events.${type.replace(".", "_")}`)}
                      checked={values.event_types.includes(type)}
                      onChange={(on) => toggleType(type, on)}
                    />
                  ))}
                </InlineGrid>
                {errorFor("event_types") ? (
                  <Text as="p" tone="critical">
                    {errorFor("event_types")}
                  </Text>
                ) : null}
              </BlockStack>
            </FormLayout>
            <InlineStack>
              <Button variant="primary" onClick={add} loading={fetcher.state !== "idle"}>
                {t("add.submit")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Card>
        <TimeZoneNote zone={data.timeZone} />
      </BlockStack>
    </Page>
  );
}
