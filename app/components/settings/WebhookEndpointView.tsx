import { useFetcher, useParams, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Collapsible,
  InlineStack,
  Page,
  Pagination,
  Text,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import type { endpointDetail } from "~/models/webhooks-out/integrations-screen.server";
import { FormErrorBanner } from "../FormErrorBanner";
import { TimeZoneNote } from "../TimeZoneNote";
import { EndpointStatusBadge } from "./IntegrationsView";
import { WebhookSecretBanner } from "./WebhookSecretBanner";

type Detail = Awaited<ReturnType<typeof endpointDetail>>;
type Delivery = Detail["deliveries"][number];
type ActionResult = { intent?: string; secret?: string } & Partial<ErrorBody>;

const STATUS_TONE = { delivered: "success", failed: "critical", pending: "attention" } as const;

function DeliveryRow({
  delivery,
  timeZone,
  onRedeliver,
  busy,
}: {
  delivery: Delivery;
  timeZone: string;
  onRedeliver: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation("Settings.Integrations");
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const tone = STATUS_TONE[delivery.status as keyof typeof STATUS_TONE];
  return (
    <Box paddingBlock="300" borderBlockStartWidth="025" borderColor="border">
      <BlockStack gap="200">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <InlineStack gap="200" blockAlign="center">
            <Badge tone={tone}>{t(`deliveryStatus.${delivery.status}`)}</Badge>
            <Text as="span" fontWeight="semibold">
              <code>{delivery.eventType}</code>
            </Text>
            <Text as="span" tone="subdued" variant="bodySm">
              {format.dateTime(delivery.createdAt, timeZone)}
            </Text>
          </InlineStack>
          <InlineStack gap="200" blockAlign="center">
            <Text as="span" variant="bodySm" tone="subdued">
              {t("log.attempts", { count: delivery.attempts })}
              {delivery.lastStatusCode !== null ? ` · HTTP ${delivery.lastStatusCode}` : ""}
            </Text>
            <Button size="slim" onClick={() => setOpen((o) => !o)} disclosure={open ? "up" : "down"}>
              {t("log.details")}
            </Button>
            <Button size="slim" onClick={onRedeliver} loading={busy}>
              {t("log.redeliver")}
            </Button>
          </InlineStack>
        </InlineStack>
        {delivery.nextAttemptAt ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {t("log.nextAttempt", { at: format.dateTime(delivery.nextAttemptAt, timeZone) })}
          </Text>
        ) : null}
        <Collapsible id={`delivery-${delivery.id}`} open={open}>
          <BlockStack gap="200">
            <Text as="p" variant="bodySm" tone="subdued">
              webhook-id: <code>{delivery.messageId}</code>
            </Text>
            {delivery.attemptsLog.map((a) => (
              <Box key={a.number} background="bg-surface-secondary" padding="200" borderRadius="200">
                <BlockStack gap="100">
                  <Text as="p" variant="bodySm">
                    {t("log.attempt", {
                      number: a.number,
                      at: format.dateTime(a.startedAt, timeZone),
                      duration: a.durationMs,
                    })}
                    {" · "}
                    {a.statusCode !== null ? `HTTP ${a.statusCode}` : t("log.noAnswer")}
                  </Text>
                  {a.error && a.statusCode === null ? (
                    <Text as="p" variant="bodySm" tone="critical" breakWord>
                      {a.error}
                    </Text>
                  ) : null}
                  {a.responseExcerpt ? (
                    <pre style={{ margin: 0, whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: 12 }}>
                      {a.responseExcerpt}
                    </pre>
                  ) : null}
                </BlockStack>
              </Box>
            ))}
            <Text as="p" variant="bodySm" fontWeight="medium">
              {t("log.payload")}
            </Text>
            <pre style={{ margin: 0, whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: 12 }}>
              {prettyJson(delivery.payload)}
            </pre>
          </BlockStack>
        </Collapsible>
      </BlockStack>
    </Box>
  );
}

/** One webhook endpoint: on/off, secret rotation, a test event, and its delivery log. */
export function WebhookEndpointView({ data }: { data: Detail }) {
  const { t } = useTranslation(["Settings.Integrations", "Global"]);
  const { role } = useParams();
  const [params, setParams] = useSearchParams();
  const format = useFormat();
  const fetcher = useFetcher<ActionResult>();
  const [secret, setSecret] = useState<string | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { endpoint } = data;
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.intent) return;
    if (fetcher.data.secret) setSecret(fetcher.data.secret);
    setToast(t(`done.${fetcher.data.intent}`));
  }, [fetcher.state, fetcher.data, t]);
  const serverError = useTranslatedError(fetcher.data?.error);
  const busyIntent = fetcher.state !== "idle" ? (fetcher.formData?.get("intent") ?? pendingIntent(fetcher.json)) : null;
  const run = (intent: string, extra: Record<string, string> = {}) =>
    fetcher.submit({ intent, id: endpoint.id, ...extra }, { method: "post", encType: "application/json" });
  const goToPage = (page: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(page));
    setParams(next);
  };

  return (
    <Page
      title={endpoint.url}
      titleMetadata={<EndpointStatusBadge enabled={endpoint.enabled} disabledReason={endpoint.disabledReason} />}
      subtitle={endpoint.description || undefined}
      backAction={{ url: `/${role}/settings/integrations` }}
      primaryAction={{
        content: t("actions.test"),
        onAction: () => run("test"),
        loading: busyIntent === "test",
      }}
      secondaryActions={[
        endpoint.enabled
          ? { content: t("actions.disable"), onAction: () => run("disable") }
          : { content: t("actions.enable"), onAction: () => run("enable") },
        { content: t("actions.rotate"), onAction: () => run("rotate") },
      ]}
    >
      <BlockStack gap="400">
        {endpoint.disabledReason === "failing" ? (
          <Banner tone="critical" title={t("failingNotice.title")}>
            <p>{t("failingNotice.body")}</p>
          </Banner>
        ) : null}
        {secret ? <WebhookSecretBanner secret={secret} onDismiss={() => setSecret(null)} /> : null}
        <FormErrorBanner error={serverError} />
        <Card>
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {t("detail.events")}
            </Text>
            <InlineStack gap="100">
              {endpoint.eventTypes.map((type) => (
                <Badge key={type}>{type}</Badge>
              ))}
            </InlineStack>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("detail.created", { at: format.dateTime(endpoint.createdAt, data.timeZone) })}
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("detail.signing")}
            </Text>
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="200">
            <InlineStack align="space-between" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {t("log.title")}
              </Text>
              <Text as="span" variant="bodySm" tone="subdued">
                {t("log.total", { count: data.total })}
              </Text>
            </InlineStack>
            {data.deliveries.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("log.empty")}
              </Text>
            ) : (
              <div data-delivery-log>
                {data.deliveries.map((d) => (
                  <DeliveryRow
                    key={d.id}
                    delivery={d}
                    timeZone={data.timeZone}
                    busy={busyIntent === "redeliver" && pendingDelivery(fetcher.json) === d.id}
                    onRedeliver={() => run("redeliver", { deliveryId: d.id })}
                  />
                ))}
              </div>
            )}
            {data.page > 1 || data.hasNext ? (
              <InlineStack align="center">
                <Pagination
                  hasPrevious={data.page > 1}
                  onPrevious={() => goToPage(data.page - 1)}
                  hasNext={data.hasNext}
                  onNext={() => goToPage(data.page + 1)}
                />
              </InlineStack>
            ) : null}
          </BlockStack>
        </Card>
        <InlineStack gap="200" blockAlign="center">
          {confirmDelete ? (
            <>
              <Text as="span">{t("actions.deleteConfirm")}</Text>
              <Button tone="critical" variant="primary" onClick={() => run("delete")} loading={busyIntent === "delete"}>
                {t("actions.delete")}
              </Button>
              <Button onClick={() => setConfirmDelete(false)}>{t("actions.cancel")}</Button>
            </>
          ) : (
            <Button tone="critical" variant="plain" onClick={() => setConfirmDelete(true)}>
              {t("actions.delete")}
            </Button>
          )}
        </InlineStack>
        <TimeZoneNote zone={data.timeZone} />
      </BlockStack>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

function pendingIntent(json: unknown): string | null {
  return json && typeof json === "object" && "intent" in json ? String((json as { intent: unknown }).intent) : null;
}

function pendingDelivery(json: unknown): string | null {
  return json && typeof json === "object" && "deliveryId" in json
    ? String((json as { deliveryId: unknown }).deliveryId)
    : null;
}

function prettyJson(text: string) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
