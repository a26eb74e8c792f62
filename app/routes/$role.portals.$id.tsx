import { z } from "zod";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PortalEditorForm } from "~/components/portal/PortalEditor";
import { PortalContentView, PortalLayout } from "~/components/portal/PortalLayout";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { UnsavedChangesPrompt } from "~/components/UnsavedChangesPrompt";
import { PORTAL_PAGE_KINDS, type PortalPageContent } from "~/lib/portal-content";
import { merchantRoute } from "~/door/merchant-route.server";
import { knownAssetPaths, MAX_IMAGE_BYTES, storeUploadedImage } from "~/models/storage/asset-storage.server";
import { pageForEditing, savePortalPage } from "~/models/portal/portal-pages.server";
import type { RouteHandle } from "~/i18n/route-handle";

// A portal page in the editor: content items on the left, a live preview on
// the right; "Save draft" keeps it for later, "Publish" shows it to affiliates.
export const handle: RouteHandle = {
  i18n: ["Portals", "Portal.schema.label", "Portal.TopBar", "Account.Common"],
  title: ({ params }) => `Portals:pages.${params.id ?? ""}`,
};

const params = z.object({
  id: z.enum(PORTAL_PAGE_KINDS, { errorMap: () => ({ message: "Page not found" }) }),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "portals", params }, async ({ shop, params }) => {
  const [page, images] = await Promise.all([pageForEditing(shop.id, params.id), knownAssetPaths(shop.id)]);
  return {
    kind: params.id,
    ...page,
    images,
    shopName: shop.name,
    handle: shop.domain.replace(/\.myshopify\.com$/, ""),
  };
});

const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("upload"),
    image: z
      .instanceof(File, { message: "Choose an image to upload." })
      .refine((file) => file.size <= MAX_IMAGE_BYTES, "Images can be at most 2 MB."),
  }),
  z.object({
    intent: z.enum(["save", "publish"]),
    content: z.string({ required_error: "The page content is missing." }).transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "The page content is not valid JSON." });
        return z.NEVER;
      }
    }),
  }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "portals", params, body: actionSchema },
  async ({ shop, params, body }) => {
    if (body.intent === "upload") {
      const bytes = new Uint8Array(await body.image.arrayBuffer());
      return { uploaded: await storeUploadedImage(shop.id, body.image.name, bytes) };
    }
    const content = await savePortalPage(shop.id, params.id, body.content, body.intent === "publish");
    return { saved: body.intent, content };
  },
);

type ActionData = {
  saved?: string;
  content?: PortalPageContent;
  uploaded?: string;
  error?: { message: string; fields?: Record<string, string> };
};

export default function PortalPageEditor() {
  const data = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { t } = useTranslation("Portals");
  const save = useFetcher<ActionData>();
  const upload = useFetcher<ActionData>();
  const [content, setContent] = useState<PortalPageContent>(data.draft);
  const [saved, setSaved] = useState(JSON.stringify(data.draft));
  const dirty = JSON.stringify(content) !== saved;
  useEffect(() => {
    if (save.data?.content) {
      setContent(save.data.content);
      setSaved(JSON.stringify(save.data.content));
    }
  }, [save.data]);
  const submit = (intent: "save" | "publish") =>
    save.submit({ intent, content: JSON.stringify(content) }, { method: "post" });
  const errors = save.data?.error?.fields ?? {};
  const images =
    upload.data?.uploaded && !data.images.includes(upload.data.uploaded)
      ? [upload.data.uploaded, ...data.images]
      : data.images;
  return (
    <Page
      title={t(`pages.${data.kind}`)}
      backAction={{ content: t("title"), url: `/${role}/portals` }}
      primaryAction={{
        content: t("publish"),
        onAction: () => submit("publish"),
        loading: save.state !== "idle" && save.formData?.get("intent") === "publish",
      }}
      secondaryActions={[
        { content: t("saveDraft"), onAction: () => submit("save"), disabled: !dirty },
        {
          content: t("openLive"),
          url: `/portal/${data.handle}/${data.kind === "landing" ? "" : data.kind}`,
          external: true,
        },
      ]}
    >
      <UnsavedChangesPrompt dirty={dirty} />
      <BlockStack gap="400">
        {save.data?.saved ? (
          <Banner tone="success">
            <p data-testid="portal-saved">{save.data.saved === "publish" ? t("publishedNow") : t("draftSaved")}</p>
          </Banner>
        ) : null}
        {save.data?.error ? (
          <Banner tone="critical">
            <p data-testid="portal-error">{save.data.error.message}</p>
          </Banner>
        ) : null}
        <Layout>
          <Layout.Section variant="oneHalf">
            <BlockStack gap="400">
              <PortalEditorForm kind={data.kind} content={content} errors={errors} onChange={setContent} />
              <Card>
                <upload.Form method="post" encType="multipart/form-data">
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      {t("images.title")}
                    </Text>
                    <input type="hidden" name="intent" value="upload" />
                    <input
                      type="file"
                      name="image"
                      accept="image/png,image/jpeg,image/gif,image/webp"
                      aria-label={t("images.choose")}
                    />
                    <div>
                      <Button submit loading={upload.state !== "idle"}>
                        {t("images.upload")}
                      </Button>
                    </div>
                    {upload.data?.error ? (
                      <Text as="p" tone="critical">
                        {upload.data.error.message}
                      </Text>
                    ) : null}
                    <Text as="p" tone="subdued">
                      {t("images.help")}
                    </Text>
                    {images.map((src) => (
                      <InlineStack key={src} gap="200" blockAlign="center">
                        <img src={src} alt="" width={40} height={40} style={{ objectFit: "contain" }} />
                        <code data-testid="image-path">{src}</code>
                      </InlineStack>
                    ))}
                  </BlockStack>
                </upload.Form>
              </Card>
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("preview")}
                </Text>
                <Box borderColor="border" borderWidth="025" borderRadius="200" background="bg-surface-secondary">
                  <div data-testid="portal-preview">
                    <PortalLayout
                      chrome={{ shopName: data.shopName, base: "#", accountOrigin: "" }}
                      page={content}
                      preview
                    >
                      {content.items.length ? (
                        <PortalContentView items={content.items} />
                      ) : (
                        <Text as="p">{t("builtInNote")}</Text>
                      )}
                    </PortalLayout>
                  </div>
                </Box>
              </BlockStack>
            </Card>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
