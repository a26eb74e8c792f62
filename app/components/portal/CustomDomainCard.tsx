import { Form, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, FormLayout, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PortalDomainState } from "~/models/portal/portal-domain.server";

// The Portals screen's custom domain: the domain asked for, its state
// (pending with the TXT record to publish, or verified) and a Verify action
// (models/portal/portal-domain.server.ts).

export type DomainActionResult = {
  ok?: boolean;
  intent?: "save" | "verify";
  error?: { code: string; message: string; fields?: Record<string, string> };
};

export function CustomDomainCard({
  state,
  result,
}: {
  state: PortalDomainState;
  result: DomainActionResult | undefined;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation("Portals");
  const [domain, setDomain] = useState(state?.host ?? "");
  return (
    <Card>
      <BlockStack gap="300">
        <Form method="post">
          <BlockStack gap="300">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {t("domain.title")}
              </Text>
              {state ? (
                <Badge tone={state.status === "verified" ? "success" : "attention"}>
                  {t(`domain.status.${state.status}`)}
                </Badge>
              ) : null}
            </InlineStack>
            {result?.ok && result.intent !== "verify" ? (
              <Banner tone="success">
                <p>{t("domain.saved")}</p>
              </Banner>
            ) : null}
            <FormLayout>
              <TextField
                label={t("domain.label")}
                name="portalDomain"
                value={domain}
                onChange={setDomain}
                autoComplete="off"
                placeholder="affiliates.yourstore.com"
                helpText={t("domain.help")}
                error={result?.error?.fields?.portalDomain}
              />
              <Button submit loading={navigation.state === "submitting"}>
                {t("domain.save")}
              </Button>
            </FormLayout>
          </BlockStack>
        </Form>
        {state?.status === "verified" ? (
          <Text as="p">
            <span data-testid="domain-verified">{t("domain.verifiedText", { host: state.host })}</span>
          </Text>
        ) : null}
        {state?.status === "pending" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="verify" />
            <BlockStack gap="200">
              <Text as="p">{t("domain.pendingText", { host: state.host })}</Text>
              <Text as="p" fontWeight="semibold">
                {t("domain.recordName")}: <code data-testid="record-name">{state.record.name}</code>
              </Text>
              <Text as="p" fontWeight="semibold">
                {t("domain.recordValue")}: <code data-testid="record-value">{state.record.value}</code>
              </Text>
              {result?.intent === undefined && result?.error && !result.error.fields ? (
                <Banner tone="warning">
                  <p>
                    {result.error.code === "validation_failed"
                      ? t("domain.notFound", { name: state.record.name })
                      : result.error.code === "unavailable"
                        ? t("domain.lookupFailed")
                        : result.error.message}
                  </p>
                </Banner>
              ) : null}
              <InlineStack>
                <Button submit>{t("domain.verify")}</Button>
              </InlineStack>
            </BlockStack>
          </Form>
        ) : null}
        {result?.ok && result.intent === "verify" ? (
          <Banner tone="success">
            <p>{t("domain.verifiedNow")}</p>
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  );
}
