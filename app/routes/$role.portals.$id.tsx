import { z } from "zod";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  InlineStack,
  Layout,
  Page,
  Text,
} from "@shopify/polaris";
import { DesktopIcon, MobileIcon } from "@shopify/polaris-icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  PageSettingsEditor,
  PREVIEW_WIDTHS,
  SectionEditor,
  SectionList,
  SignupFormEditor,
  type PreviewWidth,
} from "~/components/portal/PortalEditor";
import {
  PortalContentView,
  PortalLandingView,
  PortalLayout,
  type PortalChrome,
} from "~/components/portal/PortalLayout";
import { ScaledPreview } from "~/components/portal/ScaledPreview";
import { SignupForm } from "~/components/portal/SignupForm";
import { msg, useTranslatedError, type KeyedError } from "~/i18n/messages";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { UnsavedChangesPrompt } from "~/components/UnsavedChangesPrompt";
import { PORTAL_PAGE_KINDS, type PortalPageContent } from "~/lib/portal-content";
import { merchantRoute } from "~/door/merchant-route.server";
import { MAX_IMAGE_BYTES, storeUploadedImage } from "~/models/storage/asset-storage.server";
import { pageForEditing, savePortalPage } from "~/models/portal/portal-pages.server";
import type { RouteHandle } from "~/i18n/route-handle";

// A portal page in the editor: its sections on the left (reorder, hide,
// edit, images dropped in), a live preview of the real page on the right at
// desktop or phone width (the components the public page renders, fed the
// draft); "Save draft" keeps it for later, "Publish" shows it to affiliates
// as a new version.
export const handle: RouteHandle = {
  i18n: ["Portals", "Portal.schema.label", "Portal.TopBar", "Account.Common", "Creatives"],
  title: ({ params }) => `Portals:pages.${params.id ?? ""}`,
};

const params = z.object({
  id: z.enum(PORTAL_PAGE_KINDS, { errorMap: () => ({ message: "Page not found" }) }),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "portals", params }, async ({ shop, params }) => {
  const page = await pageForEditing(shop.id, params.id);
  return {
    kind: params.id,
    ...page,
    shopName: shop.name,
    handle: shop.domain.replace(/\.myshopify\.com$/, ""),
  };
});

const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("upload"),
    image: z
      .instanceof(File, { message: msg("Portals:errors.chooseImage") })
      .refine((file) => file.size <= MAX_IMAGE_BYTES, msg("Portals:errors.imageTooLarge", { mb: 2 })),
  }),
  z.object({
    intent: z.enum(["save", "publish"]),
    // The version the editor loaded: a save over a newer one is refused.
    version: z.coerce.number().int().min(0),
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
    const saved = await savePortalPage(shop.id, params.id, body.content, body.intent === "publish", body.version);
    return { saved: body.intent, ...saved };
  },
);

type ActionData = {
  saved?: string;
  content?: PortalPageContent;
  version?: number;
  error?: KeyedError;
};

export default function PortalPageEditor() {
  const data = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { t } = useTranslation("Portals");
  const save = useFetcher<ActionData>();
  const [content, setContent] = useState<PortalPageContent>(data.draft);
  const [saved, setSaved] = useState(JSON.stringify(data.draft));
  const [version, setVersion] = useState(data.version);
  const [selected, setSelected] = useState<number | null>(null);
  const [width, setWidth] = useState<PreviewWidth>("desktop");
  const dirty = JSON.stringify(content) !== saved;
  useEffect(() => {
    if (save.data?.content && save.data.version !== undefined) {
      setContent(save.data.content);
      setSaved(JSON.stringify(save.data.content));
      setVersion(save.data.version);
    }
  }, [save.data]);
  const error = useTranslatedError(save.data?.error);
  const submit = (intent: "save" | "publish") =>
    save.submit({ intent, version, content: JSON.stringify(content) }, { method: "post" });
  const errors = error?.fields ?? {};
  const chrome: PortalChrome = { shopName: data.shopName, base: "#", accountOrigin: "", query: "" };
  const item = selected !== null ? content.items[selected] : undefined;
  return (
    <Page
      fullWidth
      title={t(`pages.${data.kind}`)}
      titleMetadata={
        data.publishedVersion ? (
          <Badge tone="success">{t("versionBadge", { version: data.publishedVersion })}</Badge>
        ) : data.publishedAt ? (
          <Badge tone="success">{t("published")}</Badge>
        ) : (
          <Badge>{t("builtIn")}</Badge>
        )
      }
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
        {save.data?.saved && save.state === "idle" ? (
          <Banner tone="success">
            <p data-testid="portal-saved">{save.data.saved === "publish" ? t("publishedNow") : t("draftSaved")}</p>
          </Banner>
        ) : null}
        {error ? (
          <Banner tone="critical">
            <p data-testid="portal-error">{error.fields ? t("fixFields") : error.message}</p>
          </Banner>
        ) : null}
        <Layout>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <SectionList
                kind={data.kind}
                items={content.items}
                selected={selected}
                shopName={data.shopName}
                onSelect={setSelected}
                onChange={(items, next) => {
                  setContent({ ...content, items });
                  setSelected(next);
                }}
              />
              {item && selected !== null ? (
                <SectionEditor
                  key={selected}
                  item={item}
                  index={selected}
                  errors={errors}
                  shopName={data.shopName}
                  onChange={(next) =>
                    setContent({ ...content, items: content.items.map((x, j) => (j === selected ? next : x)) })
                  }
                  onClose={() => setSelected(null)}
                />
              ) : null}
              {data.kind === "signup" ? (
                <SignupFormEditor content={content} errors={errors} onChange={setContent} />
              ) : null}
              <PageSettingsEditor content={content} errors={errors} onChange={setContent} />
            </BlockStack>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t("preview")}
                  </Text>
                  <ButtonGroup variant="segmented">
                    <Button icon={DesktopIcon} pressed={width === "desktop"} onClick={() => setWidth("desktop")}>
                      {t("desktop")}
                    </Button>
                    <Button icon={MobileIcon} pressed={width === "mobile"} onClick={() => setWidth("mobile")}>
                      {t("mobile")}
                    </Button>
                  </ButtonGroup>
                </InlineStack>
                <Box borderColor="border" borderWidth="025" borderRadius="200" background="bg-surface-secondary">
                  <div data-testid="portal-preview" data-width={width}>
                    <ScaledPreview width={PREVIEW_WIDTHS[width]}>
                      <PortalLayout chrome={chrome} page={content} preview>
                        {data.kind === "landing" ? (
                          <PortalLandingView page={content} chrome={chrome} />
                        ) : (
                          <BlockStack gap="600">
                            <PortalContentView
                              items={content.items}
                              assetOrigin={chrome.accountOrigin}
                              shopName={chrome.shopName}
                            />
                            {data.kind === "signup" ? (
                              <div className="portal-narrow">
                                <Card>
                                  <SignupForm chrome={chrome} form={content.form} refCode="" via="" />
                                </Card>
                              </div>
                            ) : (
                              <Text as="p" tone="subdued">
                                {t("loginFormNote")}
                              </Text>
                            )}
                          </BlockStack>
                        )}
                      </PortalLayout>
                    </ScaledPreview>
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
