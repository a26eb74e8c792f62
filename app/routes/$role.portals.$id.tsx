import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PortalEditorForm } from "~/components/portal/PortalEditor";
import { PortalContentView, PortalLayout } from "~/components/portal/PortalLayout";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { UnsavedChangesPrompt } from "~/components/UnsavedChangesPrompt";
import { AppError, errorBody } from "~/lib/errors";
import { PORTAL_PAGE_KINDS, type PortalPageContent, type PortalPageKind } from "~/lib/portal-content";
import { notFound, requireMerchant } from "~/models/auth/require-merchant.server";
import { knownAssetPaths, storeUploadedImage } from "~/models/portal/asset-storage.server";
import { pageForEditing, savePortalPage } from "~/models/portal/portal-pages.server";

// A portal page in the editor: content items on the left, a live preview on
// the right; "Save draft" keeps it for later, "Publish" shows it to affiliates.
export const handle = { i18n: ["Portals", "Portal.schema.label", "Portal.TopBar", "Account.Common"] };

function pageKind(id: string | undefined): PortalPageKind {
  if (!(PORTAL_PAGE_KINDS as readonly string[]).includes(id ?? "")) throw notFound();
  return id as PortalPageKind;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { shop } = await requireMerchant(request, params.role, { area: "portals" });
  const kind = pageKind(params.id);
  const [page, images] = await Promise.all([pageForEditing(shop.id, kind), knownAssetPaths(shop.id)]);
  return json({ kind, ...page, images, shopName: shop.name, handle: shop.domain.replace(/\.myshopify\.com$/, "") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { shop } = await requireMerchant(request, params.role, { area: "portals" });
  const kind = pageKind(params.id);
  try {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new AppError("bad_request", "The form could not be read.");
    }
    const intent = form.get("intent");
    if (intent === "upload") {
      const file = form.get("image");
      if (!file || typeof file === "string") throw new AppError("bad_request", "Choose an image to upload.");
      if (file.size > 2 * 1024 * 1024) throw new AppError("payload_too_large", "Images can be at most 2 MB.");
      const path = await storeUploadedImage(shop.id, file.name, new Uint8Array(await file.arrayBuffer()));
      return json({ uploaded: path });
    }
    if (intent !== "save" && intent !== "publish") throw new AppError("bad_request", "Unknown action.");
    let raw: unknown;
    try {
      raw = JSON.parse(String(form.get("content") ?? ""));
    } catch {
      throw new AppError("bad_request", "The page content is not valid JSON.");
    }
    const content = await savePortalPage(shop.id, kind, raw, intent === "publish");
    return json({ saved: intent, content });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { status, body } = errorBody(error);
    return json(body, { status });
  }
}

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
                    <PortalLayout chrome={{ shopName: data.shopName, base: "#", accountOrigin: "" }} page={content}>
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
