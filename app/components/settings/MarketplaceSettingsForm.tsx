import { useFetcher } from "@remix-run/react";
import {
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Link,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "../../i18n/messages";
import type { ErrorBody } from "../../lib/errors";
import { listingFormSchema, MARKETPLACE_CATEGORIES, type ListingForm } from "../../models/marketplace/listing-form";
import { SettingsPage } from "./SettingsPage";
import { useSettingsForm } from "./useSettingsForm";

export function MarketplaceSettingsForm({ data }: { data: { listing: ListingForm; marketplaceUrl: string } }) {
  const { t } = useTranslation(["Settings.Marketplace", "Account.Common", "Global"]);
  const form = useSettingsForm({
    initial: data.listing,
    schema: listingFormSchema,
    t,
    savedKey: "listing",
    extra: { intent: "save" },
  });
  const { values, setValues, errorFor } = form;
  // The logo is uploaded at once (its own request) and saved with the offer.
  const upload = useFetcher<{ uploaded?: string } & Partial<ErrorBody>>();
  useEffect(() => {
    const uploaded = upload.data?.uploaded;
    if (upload.state === "idle" && uploaded) setValues((v) => ({ ...v, logoUrl: uploaded }));
  }, [upload.state, upload.data, setValues]);
  const uploadError = useTranslatedError(upload.data?.error);
  function uploadLogo(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.set("intent", "upload");
    form.set("image", file);
    upload.submit(form, { method: "post", encType: "multipart/form-data" });
  }
  const set =
    <K extends keyof ListingForm>(key: K) =>
    (value: ListingForm[K]) =>
      setValues({ ...values, [key]: value });

  return (
    <SettingsPage title={t("Settings.Marketplace:title")} form={form}>
      <Card>
        <BlockStack gap="200">
          <Text as="p">{t("Settings.Marketplace:intro")}</Text>
          <Text as="p">
            <Link url={data.marketplaceUrl} target="_blank">
              {t("Settings.Marketplace:view")}
            </Link>
          </Text>
        </BlockStack>
      </Card>
      <Card>
        <FormLayout>
          <Checkbox label={t("Settings.Marketplace:listed")} checked={values.listed} onChange={set("listed")} />
          <TextField
            label={t("Settings.Marketplace:programTitle")}
            autoComplete="off"
            value={values.title}
            onChange={set("title")}
            error={errorFor("title")}
          />
          <TextField
            label={t("Settings.Marketplace:description")}
            autoComplete="off"
            multiline={4}
            value={values.description}
            onChange={set("description")}
            error={errorFor("description")}
          />
          <TextField
            label={t("Settings.Marketplace:commissionSummary")}
            autoComplete="off"
            value={values.commissionSummary}
            onChange={set("commissionSummary")}
            helpText={t("Settings.Marketplace:commissionSummaryHelp")}
            error={errorFor("commissionSummary")}
          />
          <Select
            label={t("Settings.Marketplace:category")}
            options={MARKETPLACE_CATEGORIES.map((c) => ({
              value: c,
              label: t(`Account.Common:marketplace.categories.${c}`),
            }))}
            value={values.category}
            onChange={(v) => set("category")(v as ListingForm["category"])}
            error={errorFor("category")}
          />
          <BlockStack gap="200">
            <Text as="p">{t("Settings.Marketplace:logo")}</Text>
            <InlineStack gap="300" blockAlign="center">
              {values.logoUrl ? (
                <img src={values.logoUrl} alt="" height={56} data-testid="marketplace-logo" />
              ) : (
                <Text as="span" tone="subdued">
                  {t("Settings.Marketplace:noLogo")}
                </Text>
              )}
              <input
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                aria-label={t("Settings.Marketplace:uploadLogo")}
                onChange={(e) => uploadLogo(e.currentTarget.files?.[0])}
              />
              {values.logoUrl ? (
                <Button onClick={() => set("logoUrl")("")}>{t("Settings.Marketplace:removeLogo")}</Button>
              ) : null}
            </InlineStack>
            <Text as="p" tone="subdued">
              {t("Settings.Marketplace:logoHelp")}
            </Text>
            {errorFor("logoUrl") || uploadError ? (
              <Text as="p" tone="critical">
                {errorFor("logoUrl") ?? uploadError?.message}
              </Text>
            ) : null}
          </BlockStack>
        </FormLayout>
      </Card>
    </SettingsPage>
  );
}
