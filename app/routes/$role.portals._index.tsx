import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  ResourceItem,
  ResourceList,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { errorBody, AppError } from "~/lib/errors";
import { parseForm } from "~/lib/http.server";
import { requireMerchant } from "~/models/auth/require-merchant.server";
import { portalOverview } from "~/models/portal/portal-admin.server";
import { portalDomainAction, portalDomainFormSchema } from "~/models/portal/portal-domain.server";

// Portals: the affiliate landing, sign-up and login pages the merchant edits,
// the three ways affiliates reach them, and the custom domain.
export const handle = { i18n: ["Portals"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { shop } = await requireMerchant(request, params.role, { area: "portals" });
  return json(await portalOverview(shop));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { shop } = await requireMerchant(request, params.role, { area: "portals" });
  try {
    const input = await parseForm(request, portalDomainFormSchema);
    return json({ ok: true, intent: input.intent, domain: await portalDomainAction(shop.id, input) });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body, headers } = errorBody(error);
    return json(body, { status, headers });
  }
}

export default function Portals() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<{
    ok?: boolean;
    intent?: "save" | "verify";
    error?: { code: string; message: string; fields?: Record<string, string> };
  }>();
  const navigation = useNavigation();
  const { role } = useParams();
  const { t } = useTranslation("Portals");
  const [domain, setDomain] = useState(data.domain?.host ?? "");
  const state = data.domain;
  return (
    <Page title={t("title")}>
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <ResourceList
              items={data.pages}
              renderItem={(p) => (
                <ResourceItem id={p.kind} url={`/${role}/portals/${p.kind}`} accessibilityLabel={t(`pages.${p.kind}`)}>
                  <InlineStack align="space-between">
                    <Text as="h3" variant="bodyMd" fontWeight="semibold">
                      {t(`pages.${p.kind}`)}
                    </Text>
                    {p.publishedAt ? (
                      <Badge tone={p.unpublished ? "attention" : "success"}>
                        {p.unpublished ? t("unpublishedChanges") : t("published")}
                      </Badge>
                    ) : (
                      <Badge>{t("builtIn")}</Badge>
                    )}
                  </InlineStack>
                </ResourceItem>
              )}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("ways.title")}
              </Text>
              <Text as="p">
                {t("ways.app")}:{" "}
                <a href={data.ways.app} target="_blank" rel="noopener noreferrer">
                  {data.ways.app}
                </a>
              </Text>
              <Text as="p">
                {t("ways.proxy")}: {data.ways.proxy}
              </Text>
              <Text as="p">
                {t("ways.custom")}:{" "}
                {data.ways.custom ??
                  (state?.status === "pending" ? t("ways.pendingCustom", { host: state.host }) : t("ways.noCustom"))}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
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
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
