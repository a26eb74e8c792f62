import { useFetcher, useParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  FormLayout,
  Page,
  Text,
  TextField,
  Toast,
} from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { keyedErrorMap, translateMessage, useTranslatedError } from "../../i18n/messages";
import { fieldErrorsFromZod, type ErrorBody } from "../../lib/errors";
import { buildRedirectUrl } from "../../models/tracking/redirect-url";
import { defaultLandingPath, promoteLinkSchema, type PromoteLink } from "../../models/settings/promote-link";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";

// Settings > Promote link, saved to its own route's action; the same zod
// schema checks the form here and the body there.
export function PromoteLinkSettingsForm({ settings, host }: { settings: PromoteLink; host: string }) {
  const { t } = useTranslation(["Settings", "Global"]);
  const { role } = useParams();
  const fetcher = useFetcher<{ saved?: PromoteLink } & Partial<ErrorBody>>();
  const [saved, setSaved] = useState(settings);
  const [values, setValues] = useState(settings);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [toast, setToast] = useState(false);
  // Keyed by content: a revalidation (e.g. after an upload) brings an equal
  // object, which must not throw away what is being edited.
  const incoming = JSON.stringify(settings);
  useEffect(() => {
    setSaved(JSON.parse(incoming));
    setValues(JSON.parse(incoming));
  }, [incoming]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.saved) {
      setSaved(fetcher.data.saved);
      setValues(fetcher.data.saved);
      setToast(true);
    }
  }, [fetcher.state, fetcher.data]);

  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const serverError = useTranslatedError(fetcher.data?.error);
  const serverFields = serverError?.fields ?? {};
  const errorFor = (path: keyof PromoteLink) => translateMessage(t, clientErrors[path]) ?? serverFields[path];
  const set = (change: Partial<PromoteLink>) => setValues({ ...values, ...change });
  const example = useMemo(() => {
    const parsed = promoteLinkSchema.safeParse(values);
    return parsed.success
      ? buildRedirectUrl(host, defaultLandingPath(parsed.data), parsed.data.referral_param, "CODE", null)
      : null;
  }, [values, host]);

  function save() {
    const parsed = promoteLinkSchema.safeParse(values, { errorMap: keyedErrorMap });
    if (!parsed.success) {
      setClientErrors(fieldErrorsFromZod(parsed.error.issues));
      return;
    }
    setClientErrors({});
    fetcher.submit(parsed.data, { method: "post", encType: "application/json" });
  }

  const utmField = (key: "utm_source" | "utm_medium" | "utm_campaign") => (
    <TextField
      label={key}
      autoComplete="off"
      value={values[key]}
      onChange={(v) => set({ [key]: v })}
      error={errorFor(key)}
    />
  );

  return (
    <Page
      title={t("Settings:tabs.promoteLink")}
      backAction={{ url: `/${role}/settings` }}
      primaryAction={{ content: t("Global:save"), onAction: save, disabled: !dirty, loading: fetcher.state !== "idle" }}
    >
      <UnsavedChangesPrompt dirty={dirty} />
      <BlockStack gap="400">
        {serverError && !serverError.fields ? (
          <Banner tone="critical">
            <p>{serverError.message}</p>
          </Banner>
        ) : null}
        <Card>
          <FormLayout>
            <TextField
              label={t("Settings:general.referralParam")}
              autoComplete="off"
              value={values.referral_param}
              onChange={(referral_param) => set({ referral_param })}
              error={errorFor("referral_param")}
            />
            <ChoiceList
              title={t("Settings:promoteLink.destination")}
              choices={[
                { label: t("Settings:promoteLink.home"), value: "home" },
                { label: t("Settings:promoteLink.page"), value: "page" },
                { label: t("Settings:promoteLink.product"), value: "product" },
              ]}
              selected={[values.destination]}
              onChange={([destination]) => set({ destination: destination as PromoteLink["destination"] })}
            />
            {values.destination !== "home" ? (
              <TextField
                label={t("Settings:promoteLink.handle")}
                autoComplete="off"
                prefix={values.destination === "page" ? "/pages/" : "/products/"}
                value={values.destination_handle}
                onChange={(destination_handle) => set({ destination_handle })}
                error={errorFor("destination_handle")}
              />
            ) : null}
            <ChoiceList
              title={t("Settings:promoteLink.format")}
              choices={[
                { label: t("Settings:promoteLink.formatShort"), value: "short" },
                { label: t("Settings:promoteLink.formatStore"), value: "store" },
              ]}
              selected={[values.link_format]}
              onChange={([link_format]) => set({ link_format: link_format as PromoteLink["link_format"] })}
            />
          </FormLayout>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("Settings:promoteLink.utm")}
            </Text>
            <Text as="p" tone="subdued">
              {t("Settings:promoteLink.utmHelp")}
            </Text>
            <FormLayout>
              <FormLayout.Group>
                {utmField("utm_source")}
                {utmField("utm_medium")}
                {utmField("utm_campaign")}
              </FormLayout.Group>
            </FormLayout>
          </BlockStack>
        </Card>
        {example ? (
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("Settings:promoteLink.example")}
              </Text>
              <Text as="p" breakWord>
                <span data-testid="promote-link-example">{example}</span>
              </Text>
            </BlockStack>
          </Card>
        ) : null}
        <div>
          <Button variant="primary" onClick={save} disabled={!dirty} loading={fetcher.state !== "idle"}>
            {t("Global:save")}
          </Button>
        </div>
      </BlockStack>
      {toast ? <Toast content={t("Global:saveSuccessful")} onDismiss={() => setToast(false)} /> : null}
    </Page>
  );
}
