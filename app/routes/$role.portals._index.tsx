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
import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { portalOverview, setPortalDomain } from "~/models/portal/portal-admin.server";

// Portals: the affiliate landing, sign-up and login pages the merchant edits,
// the three ways affiliates reach them, and the custom domain.
export const handle = { i18n: ["Portals"] };

export const loader = /* @__PURE__ */ merchantRoute({ area: "portals" }, async ({ shop }) => portalOverview(shop));

const domainSchema = z.object({ portalDomain: z.string().max(300) });

export const action = /* @__PURE__ */ merchantRoute(
  { area: "portals", body: domainSchema },
  async ({ shop, body }) => ({
    ok: true,
    portalDomain: await setPortalDomain(shop.id, body.portalDomain),
  }),
);

export default function Portals() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<{ ok?: boolean; error?: { message: string; fields?: Record<string, string> } }>();
  const navigation = useNavigation();
  const { role } = useParams();
  const { t } = useTranslation("Portals");
  const [domain, setDomain] = useState(data.portalDomain);
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
                {t("ways.custom")}: {data.ways.custom ?? t("ways.noCustom")}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <Form method="post">
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("domain.title")}
                </Text>
                {result?.ok ? (
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
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
