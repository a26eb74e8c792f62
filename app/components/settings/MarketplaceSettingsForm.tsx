import { BlockStack, Card, Checkbox, FormLayout, Link, Select, Text, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { listingFormSchema, MARKETPLACE_CATEGORIES, type ListingForm } from "../../models/marketplace/listing-form";
import { ImageDropZone } from "../ImageDropZone";
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
          {/* The logo is uploaded at once (its own request) and saved with the offer. */}
          <ImageDropZone
            label={t("Settings.Marketplace:logo")}
            value={values.logoUrl}
            error={errorFor("logoUrl")}
            helpText={t("Settings.Marketplace:logoHelp")}
            testId="upload-marketplace-logo"
            thumbnailTestId="marketplace-logo"
            onChange={(v) => set("logoUrl")(v)}
          />
        </FormLayout>
      </Card>
    </SettingsPage>
  );
}
