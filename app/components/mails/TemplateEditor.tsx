import { useFetcher, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import { DeliveryLog, type LogPage } from "./DeliveryLog";

interface Editor {
  key: string;
  audience: string;
  transactional: boolean;
  enabled: boolean;
  edited: boolean;
  subject: string;
  body: string;
  defaults: { subject: string; body: string };
  variables: { name: string; sample: string }[];
}

interface Answer extends Partial<ErrorBody> {
  intent?: string;
  preview?: { subject: string; html: string; text: string };
  testSentTo?: string;
}

const PREVIEW_DELAY_MS = 400;

/** Subject and body in Liquid, the variables, a live preview with sample data, test, reset, log. */
export function TemplateEditor({ editor, log }: { editor: Editor; log: LogPage }) {
  const { t } = useTranslation(["Mails", "Global"]);
  const { role } = useParams();
  const save = useFetcher<Answer>();
  const preview = useFetcher<Answer>();
  const [form, setForm] = useState({ subject: editor.subject, body: editor.body, enabled: editor.enabled });
  const [shown, setShown] = useState<Answer["preview"] | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const seen = useRef<Answer | undefined>(undefined);
  const saveError = useTranslatedError(save.state === "idle" ? save.data?.error : undefined);
  const previewError = useTranslatedError(preview.state === "idle" ? preview.data?.error : undefined);
  const fields = saveError?.fields ?? previewError?.fields ?? {};

  // The preview follows the text as it is typed (after a short pause).
  const { subject, body } = form;
  const submitPreview = preview.submit;
  useEffect(() => {
    const timer = setTimeout(
      () => submitPreview({ intent: "preview", subject, body }, { method: "post" }),
      PREVIEW_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [subject, body, submitPreview]);
  // A template with errors has no preview: subject and body are cleared
  // together, and the preview says why (the errors are under the fields).
  useEffect(() => {
    if (preview.state !== "idle" || !preview.data) return;
    setShown(preview.data.preview ?? null);
  }, [preview.state, preview.data]);
  const previewFailed = preview.state === "idle" && Boolean(preview.data?.error);

  useEffect(() => {
    if (save.state !== "idle" || !save.data || seen.current === save.data) return;
    seen.current = save.data;
    if (save.data.error) return;
    if (save.data.intent === "reset")
      setForm((f) => ({ ...f, subject: editor.defaults.subject, body: editor.defaults.body }));
    setToast(
      save.data.intent === "test"
        ? t("Mails:editor.testSent", { email: save.data.testSentTo ?? "" })
        : save.data.intent === "reset"
          ? t("Mails:editor.resetDone")
          : t("Global:saveSuccessful"),
    );
  }, [save.state, save.data, t, editor.defaults]);

  const busy = save.state !== "idle";
  const submit = (intent: string) =>
    save.submit({ intent, subject: form.subject, body: form.body, enabled: String(form.enabled) }, { method: "post" });

  return (
    <Page
      title={t(`Mails:names.${editor.key.replace(".", "_")}`)}
      titleMetadata={
        <InlineStack gap="100">
          <Badge>{t(`Mails:audience.${editor.audience}`)}</Badge>
          {editor.transactional ? <Badge>{t("Mails:list.transactional")}</Badge> : null}
        </InlineStack>
      }
      backAction={{ url: `/${role}/mails` }}
      primaryAction={{
        content: t("Mails:save"),
        onAction: () => submit("save"),
        loading: busy && save.formData?.get("intent") === "save",
      }}
      secondaryActions={[
        { content: t("Mails:editor.sendTest"), onAction: () => submit("test") },
        { content: t("Mails:editor.reset"), onAction: () => save.submit({ intent: "reset" }, { method: "post" }) },
      ]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {saveError && !saveError.fields ? <Banner tone="critical" title={saveError.message} /> : null}
            <Card>
              <FormLayout>
                {editor.transactional ? (
                  <Text as="p" tone="subdued">
                    {t("Mails:editor.alwaysSent")}
                  </Text>
                ) : (
                  <Checkbox
                    label={t("Mails:editor.enabled")}
                    checked={form.enabled}
                    onChange={(enabled) => setForm({ ...form, enabled })}
                  />
                )}
                <TextField
                  label={t("Mails:editor.subject")}
                  autoComplete="off"
                  name="subject"
                  value={form.subject}
                  onChange={(value) => setForm({ ...form, subject: value })}
                  error={fields.subject}
                  monospaced
                />
                <TextField
                  label={t("Mails:editor.body")}
                  helpText={t("Mails:editor.bodyHelp")}
                  autoComplete="off"
                  name="body"
                  value={form.body}
                  onChange={(value) => setForm({ ...form, body: value })}
                  error={fields.body}
                  multiline={12}
                  monospaced
                />
                <Text as="p" tone="subdued">
                  {t("Mails:editor.languages")}
                </Text>
              </FormLayout>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingSm">
                  {t("Mails:editor.preview")}
                </Text>
                {shown ? (
                  <BlockStack gap="200">
                    <Text as="p" fontWeight="semibold" breakWord>
                      {shown.subject}
                    </Text>
                    <Box
                      borderColor="border"
                      borderWidth="025"
                      borderRadius="200"
                      overflowX="hidden"
                      overflowY="hidden"
                    >
                      <iframe
                        title={t("Mails:editor.preview")}
                        sandbox=""
                        srcDoc={shown.html}
                        data-testid="mail-preview"
                        style={{ width: "100%", height: 420, border: 0, display: "block" }}
                      />
                    </Box>
                  </BlockStack>
                ) : previewFailed ? (
                  <Banner tone="critical" title={t("Mails:editor.previewInvalid")}>
                    {previewError && !previewError.fields ? previewError.message : null}
                  </Banner>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("Mails:editor.previewWaiting")}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingSm">
                {t("Mails:editor.variables")}
              </Text>
              <Text as="p" tone="subdued">
                {t("Mails:editor.variablesHelp")}
              </Text>
              {editor.variables.map((v) => (
                <BlockStack gap="050" key={v.name}>
                  <Text as="span" fontWeight="semibold" breakWord>
                    <code>{`{{ ${v.name} }}`}</code>
                  </Text>
                  <Text as="span" tone="subdued" breakWord>
                    {v.sample}
                  </Text>
                </BlockStack>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card padding="0">
            <Box padding="400">
              <Text as="h2" variant="headingSm">
                {t("Mails:editor.log")}
              </Text>
            </Box>
            <DeliveryLog log={log} />
          </Card>
        </Layout.Section>
      </Layout>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}
