import type { RouteHandle } from "~/i18n/route-handle";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, InlineGrid, Layout, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { CreativeFormFields } from "~/components/creatives/CreativeForm";
import { useFetcherResult } from "~/components/list/useFetcherResult";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { UnsavedChangesPrompt } from "~/components/UnsavedChangesPrompt";
import { merchantRoute } from "~/door/merchant-route.server";
import { recordId } from "~/door/params";
import { formatFileSizeIn, useFormat } from "~/i18n/format";
import { translateFields, translateMessage } from "~/i18n/messages";
import { creativeFormSchema, type CreativeForm } from "~/models/creatives/creative-schemas";
import {
  creativeForEditing,
  deleteCreative,
  newCreativeChoices,
  saveCreative,
} from "~/models/creatives/merchant-creatives.server";
import { shopHost } from "~/models/tracking/redirect-url";
import { useShell } from "./$role";

// One creative: its preview, how often affiliates took it, and its form.
// /{role}/creatives/new?kind=video|text makes a video link or a text snippet
// (images and files are made by uploading them on the list).
export const handle: RouteHandle = {
  i18n: ["Creatives", "Global"],
  title: ({ params, data }) =>
    params.id !== "new"
      ? "Creatives:detailTitle"
      : (data as { kind?: string } | undefined)?.kind === "video"
        ? "Creatives:newVideo"
        : "Creatives:newText",
};

const params = z.object({ id: z.union([z.literal("new"), recordId("creative")]) });
const query = z.object({ kind: z.enum(["video", "text"]).catch("text") });

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "creatives", params, query },
  async ({ db, params, query, shop }) => {
    const storeHost = shopHost(shop);
    if (params.id === "new") {
      return { ...(await newCreativeChoices(db)), creative: null, uses: null, kind: query.kind, storeHost };
    }
    return { ...(await creativeForEditing(db, params.id)), kind: null, storeHost };
  },
);

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), form: creativeFormSchema }),
  z.object({ intent: z.literal("delete") }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "creatives", params, body: actionSchema },
  async ({ db, params, body, shop, role }) => {
    if (body.intent === "delete") {
      if (params.id === "new") throw new Response(null, { status: 404 });
      await deleteCreative(db, params.id);
      return redirect(`/${role}/creatives`);
    }
    const saved = await saveCreative(db, shop, params.id === "new" ? null : params.id, body.form);
    if (params.id === "new") return redirect(`/${role}/creatives/${saved.id}`);
    return { saved: true };
  },
);

type ActionData = {
  saved?: boolean;
  error?: {
    message: string;
    messageKey?: { key: string };
    fields?: Record<string, string>;
    fieldKeys?: Record<string, { key: string }>;
  };
};

const blank = (kind: CreativeForm["kind"]): CreativeForm => ({
  kind,
  title: "",
  category: "",
  description: "",
  destination: kind === "text" ? "/" : "",
  videoUrl: "",
  body: "",
  allCampaigns: true,
  campaignIds: [],
  active: true,
});

export default function CreativeDetail() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Creatives", "Global"]);
  const { role } = useParams();
  const navigate = useNavigate();
  const format = useFormat();
  const { shop } = useShell();
  const save = useFetcher<ActionData>();
  const remove = useFetcher<ActionData>();
  const initial: CreativeForm = data.creative
    ? { ...data.creative, kind: data.creative.kind as CreativeForm["kind"] }
    : blank(data.kind ?? "text");
  const [values, setValues] = useState<CreativeForm>(initial);
  const [savedValues, setSavedValues] = useState(JSON.stringify(initial));
  const dirty = JSON.stringify(values) !== savedValues;
  useFetcherResult(save, ({ saved }) => {
    if (saved) setSavedValues(JSON.stringify(values));
  });

  const error = save.data?.error;
  const fieldErrors = translateFields(t, error?.fields, error?.fieldKeys);
  // The form's fields are nested under "form" in the body.
  const errors = Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k.replace(/^form\./, ""), v]));
  const c = data.creative;
  const title = c ? c.title : t(values.kind === "video" ? "newVideo" : "newText");

  return (
    <Page
      title={title}
      titleMetadata={
        c ? (
          <Text as="span" tone="subdued">
            {t(`kinds.${c.kind}`)}
          </Text>
        ) : undefined
      }
      backAction={{ content: t("title"), url: `/${role}/creatives` }}
      primaryAction={{
        content: t("save"),
        loading: save.state !== "idle",
        disabled: !!c && !dirty,
        onAction: () =>
          save.submit({ intent: "save", form: values } as never, { method: "post", encType: "application/json" }),
      }}
      secondaryActions={
        c
          ? [
              {
                content: t("delete"),
                destructive: true,
                loading: remove.state !== "idle",
                onAction: () => {
                  if (window.confirm(t("deleteConfirm"))) {
                    remove.submit({ intent: "delete" }, { method: "post", encType: "application/json" });
                  }
                },
              },
            ]
          : []
      }
    >
      <UnsavedChangesPrompt dirty={dirty && save.state === "idle"} />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {save.data?.saved && !dirty ? (
              <Banner tone="success" onDismiss={() => navigate(".", { replace: true })}>
                <p data-testid="creative-saved">{t("Global:saveSuccessful")}</p>
              </Banner>
            ) : null}
            {error && !error.fields ? (
              <Banner tone="critical">
                <p>{translateMessage(t, error.messageKey ?? error.message, error.message)}</p>
              </Banner>
            ) : null}
            <CreativeFormFields
              values={values}
              onChange={setValues}
              errors={errors}
              categories={data.categories}
              campaigns={data.campaigns}
              storeHost={data.storeHost}
            />
          </BlockStack>
        </Layout.Section>
        {c ? (
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              {c.preview ? (
                <Card padding="0">
                  <img
                    src={c.preview}
                    alt={c.title}
                    style={{
                      display: "block",
                      width: "100%",
                      height: "auto",
                      borderRadius: "var(--p-border-radius-300)",
                    }}
                  />
                </Card>
              ) : null}
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t("uses.title")}
                  </Text>
                  <InlineGrid columns={3} gap="200">
                    {(["download", "embed", "copy"] as const).map((action) => (
                      <Box key={action}>
                        <Text as="p" variant="headingLg" numeric>
                          <span data-testid={`uses-${action}`}>{format.number(data.uses?.[action] ?? 0)}</span>
                        </Text>
                        <Text as="p" tone="subdued" variant="bodySm">
                          {t(`uses.${action}`)}
                        </Text>
                      </Box>
                    ))}
                  </InlineGrid>
                  <Text as="p" tone="subdued" variant="bodySm">
                    {t("uses.note")}
                  </Text>
                </BlockStack>
              </Card>
              {c.originalName ? (
                <Card>
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingMd">
                      {t("fileInfo.title")}
                    </Text>
                    <Text as="p" breakWord>
                      <a href={`/${role}/creatives/${c.id}/file`} download data-testid="creative-file">
                        {c.originalName}
                      </a>
                    </Text>
                    <Text as="p" tone="subdued">
                      {[
                        c.mimeType,
                        c.sizeBytes ? formatFileSizeIn(format.tag, c.sizeBytes) : null,
                        c.width && c.height ? `${c.width} × ${c.height} px` : null,
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                    </Text>
                    {c.kind === "image" ? (
                      <Text as="p" tone="subdued" variant="bodySm">
                        {t("fileInfo.thumbnails", { number: c.thumbnailCount })}
                      </Text>
                    ) : null}
                    <Text as="p" tone="subdued" variant="bodySm">
                      {t("fileInfo.added", { date: format.date(c.createdAt, shop.timezone) })}
                    </Text>
                  </BlockStack>
                </Card>
              ) : null}
            </BlockStack>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
