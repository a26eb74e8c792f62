import {
  BlockStack,
  Card,
  Checkbox,
  ChoiceList,
  Combobox,
  FormLayout,
  Listbox,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreativeForm as FormValues } from "~/models/creatives/creative-schemas";

/** The fields of a creative; which appear depends on its kind. */
export function CreativeFormFields({
  values,
  onChange,
  errors,
  categories,
  campaigns,
  storeHost,
}: {
  values: FormValues;
  onChange: (values: FormValues) => void;
  errors: Record<string, string>;
  categories: string[];
  campaigns: { id: string; name: string }[];
  storeHost: string;
}) {
  const { t } = useTranslation("Creatives");
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => onChange({ ...values, [key]: value });
  const [categoryOpen, setCategoryOpen] = useState(false);
  const matching = categories.filter(
    (c) => c.toLowerCase().includes(values.category.toLowerCase()) && c !== values.category,
  );
  return (
    <BlockStack gap="400">
      <Card>
        <FormLayout>
          <TextField
            label={t("form.title")}
            value={values.title}
            onChange={(v) => set("title", v)}
            error={errors.title}
            autoComplete="off"
            maxLength={120}
          />
          <Combobox
            activator={
              <Combobox.TextField
                label={t("form.category")}
                value={values.category}
                onChange={(v) => {
                  set("category", v);
                  setCategoryOpen(true);
                }}
                helpText={t("form.categoryHelp")}
                error={errors.category}
                autoComplete="off"
              />
            }
            onClose={() => setCategoryOpen(false)}
          >
            {categoryOpen && matching.length ? (
              <Listbox onSelect={(v) => set("category", v)}>
                {matching.map((c) => (
                  <Listbox.Option key={c} value={c}>
                    {c}
                  </Listbox.Option>
                ))}
              </Listbox>
            ) : null}
          </Combobox>
          <TextField
            label={t("form.description")}
            value={values.description}
            onChange={(v) => set("description", v)}
            error={errors.description}
            helpText={t("form.descriptionHelp")}
            multiline={2}
            autoComplete="off"
          />
          {values.kind === "image" || values.kind === "text" ? (
            <TextField
              label={t("form.destination")}
              value={values.destination}
              onChange={(v) => set("destination", v)}
              error={errors.destination}
              helpText={t("form.destinationHelp", { host: storeHost })}
              placeholder="/products/..."
              autoComplete="off"
            />
          ) : null}
          {values.kind === "video" ? (
            <TextField
              label={t("form.videoUrl")}
              value={values.videoUrl}
              onChange={(v) => set("videoUrl", v)}
              error={errors.videoUrl}
              type="url"
              placeholder="https://"
              autoComplete="off"
            />
          ) : null}
          {values.kind === "text" ? (
            <TextField
              label={t("form.body")}
              value={values.body}
              onChange={(v) => set("body", v)}
              error={errors.body}
              helpText={t("form.bodyHelp", { link: "{{link}}" })}
              multiline={6}
              autoComplete="off"
            />
          ) : null}
        </FormLayout>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("form.visibility")}
          </Text>
          <ChoiceList
            title={t("form.visibility")}
            titleHidden
            choices={[
              { label: t("visibility.all"), value: "all" },
              { label: t("form.someCampaigns"), value: "some" },
            ]}
            selected={[values.allCampaigns ? "all" : "some"]}
            onChange={([v]) => set("allCampaigns", v === "all")}
          />
          {values.allCampaigns ? null : (
            <ChoiceList
              title={t("form.campaigns")}
              allowMultiple
              choices={campaigns.map((c) => ({ label: c.name, value: c.id }))}
              selected={values.campaignIds}
              onChange={(ids) => set("campaignIds", ids)}
              error={errors.campaignIds}
            />
          )}
          <Checkbox
            label={t("form.active")}
            helpText={t("form.activeHelp")}
            checked={values.active}
            onChange={(v) => set("active", v)}
          />
        </BlockStack>
      </Card>
    </BlockStack>
  );
}
