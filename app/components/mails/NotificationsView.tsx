import { useFetcher, useNavigate, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  FormLayout,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Tabs,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import { FormErrorBanner } from "../FormErrorBanner";
import { WrappingCell } from "../WrappingCell";
import { DeliveryLog, type LogPage } from "./DeliveryLog";

interface NotificationRow {
  key: string;
  audience: string;
  transactional: boolean;
  enabled: boolean;
  edited: boolean;
  subject: string;
}

interface Props {
  tab: "emails" | "log" | "sender" | "mine";
  notifications: NotificationRow[];
  settings: { fromName: string; replyTo: string };
  log: LogPage;
  smtpConfigured: boolean;
  digest: "daily" | "weekly" | "off";
  merchantKinds: string[];
  me: { email: string; kinds: string[] } | null;
}

interface Answer extends Partial<ErrorBody> {
  intent?: string;
}

const TABS = ["emails", "mine", "log", "sender"] as const;
const DIGEST_MODES = ["daily", "weekly", "off"] as const;

/** Notifications: every e-mail with on/off, the delivery log, the sender. */
export function NotificationsView({
  tab,
  notifications,
  settings,
  log,
  smtpConfigured,
  digest,
  merchantKinds,
  me,
}: Props) {
  const { t } = useTranslation(["Mails", "Global"]);
  const { role } = useParams();
  const navigate = useNavigate();
  const fetcher = useFetcher<Answer>();
  const [sender, setSender] = useState(settings);
  const [digestMode, setDigestMode] = useState<string>(digest);
  const [myKinds, setMyKinds] = useState<string[]>(me?.kinds ?? []);
  const [toast, setToast] = useState<string | null>(null);
  const seen = useRef<Answer | undefined>(undefined);
  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || seen.current === fetcher.data) return;
    seen.current = fetcher.data;
    if (!fetcher.data.error) setToast(t("Global:saveSuccessful"));
  }, [fetcher.state, fetcher.data, t]);

  const tabs = TABS.map((id) => ({ id, content: t(`Mails:tabs.${id}`) }));
  const selected = TABS.indexOf(tab);

  return (
    <Page title={t("Mails:title")}>
      <BlockStack gap="400">
        {!smtpConfigured ? (
          <Banner tone="info" title={t("Mails:noSmtp.title")}>
            <p>{t("Mails:noSmtp.body")}</p>
          </Banner>
        ) : null}
        <Tabs tabs={tabs} selected={selected} onSelect={(i) => navigate(`/${role}/mails?tab=${TABS[i]}`)} />
        <FormErrorBanner error={error} />
        {tab === "emails" ? (
          <Card padding="0">
            <IndexTable
              resourceName={{ singular: t("Mails:list.singular"), plural: t("Mails:list.plural") }}
              itemCount={notifications.length}
              selectable={false}
              headings={[
                { title: t("Mails:list.name") },
                { title: t("Mails:list.recipient") },
                { title: t("Mails:list.subject") },
                { title: t("Mails:list.state") },
                { title: t("Mails:list.actions") },
              ]}
            >
              {notifications.map((row, index) => (
                <IndexTable.Row id={row.key} key={row.key} position={index}>
                  <IndexTable.Cell>
                    <div className="app-wrapping-cell">
                      <Link url={`/${role}/mails/${row.key}`} removeUnderline>
                        <Text as="span" fontWeight="semibold">
                          {t(`Mails:names.${row.key.replace(".", "_")}`)}
                        </Text>
                      </Link>
                    </div>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{t(`Mails:audience.${row.audience}`)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <WrappingCell text={row.subject} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <InlineStack gap="100">
                      <Badge tone={row.enabled ? "success" : undefined}>
                        {row.enabled ? t("Mails:list.on") : t("Mails:list.off")}
                      </Badge>
                      {row.edited ? <Badge tone="info">{t("Mails:list.edited")}</Badge> : null}
                      {row.transactional ? <Badge>{t("Mails:list.transactional")}</Badge> : null}
                    </InlineStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {row.transactional ? null : (
                      <InlineStack gap="200">
                        <Button
                          size="slim"
                          onClick={() =>
                            fetcher.submit(
                              { intent: "toggle", key: row.key, enabled: String(!row.enabled) },
                              { method: "post" },
                            )
                          }
                        >
                          {row.enabled ? t("Mails:list.turnOff") : t("Mails:list.turnOn")}
                        </Button>
                      </InlineStack>
                    )}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          </Card>
        ) : null}
        {tab === "mine" ? (
          <>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("Mails:digest.title")}
                </Text>
                <ChoiceList
                  title={t("Mails:digest.title")}
                  titleHidden
                  choices={DIGEST_MODES.map((mode) => ({ value: mode, label: t(`Mails:digest.${mode}`) }))}
                  selected={[digestMode]}
                  onChange={([mode]) => setDigestMode(mode ?? "weekly")}
                />
                <Text as="p" tone="subdued">
                  {t("Mails:digest.help")}
                </Text>
                <InlineStack>
                  <Button
                    variant="primary"
                    loading={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "digest"}
                    onClick={() => fetcher.submit({ intent: "digest", digest: digestMode }, { method: "post" })}
                  >
                    {t("Mails:save")}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("Mails:mine.title")}
                </Text>
                {me ? (
                  <>
                    <Text as="p" tone="subdued">
                      {t("Mails:mine.help", { email: me.email })}
                    </Text>
                    <ChoiceList
                      title={t("Mails:mine.title")}
                      titleHidden
                      allowMultiple
                      choices={merchantKinds.map((key) => ({
                        value: key,
                        label: t(`Mails:names.${key.replace(".", "_")}`),
                      }))}
                      selected={myKinds}
                      onChange={setMyKinds}
                    />
                    <InlineStack>
                      <Button
                        variant="primary"
                        loading={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "mine"}
                        onClick={() => fetcher.submit({ intent: "mine", kinds: myKinds.join(",") }, { method: "post" })}
                      >
                        {t("Mails:save")}
                      </Button>
                    </InlineStack>
                  </>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("Mails:mine.noUser")}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </>
        ) : null}
        {tab === "log" ? (
          <Card padding="0">
            <DeliveryLog log={log} pageUrl={(page) => `/${role}/mails?tab=log&page=${page}`} />
          </Card>
        ) : null}
        {tab === "sender" ? (
          <Card>
            <FormLayout>
              <TextField
                label={t("Mails:sender.fromName")}
                helpText={t("Mails:sender.fromNameHelp")}
                autoComplete="off"
                name="fromName"
                value={sender.fromName}
                onChange={(fromName) => setSender({ ...sender, fromName })}
                error={error?.fields?.fromName}
              />
              <TextField
                label={t("Mails:sender.replyTo")}
                helpText={t("Mails:sender.replyToHelp")}
                type="email"
                autoComplete="email"
                name="replyTo"
                value={sender.replyTo}
                onChange={(replyTo) => setSender({ ...sender, replyTo })}
                error={error?.fields?.replyTo}
              />
              <InlineStack>
                <Button
                  variant="primary"
                  loading={fetcher.state !== "idle"}
                  onClick={() => fetcher.submit({ intent: "sender", ...sender }, { method: "post" })}
                >
                  {t("Mails:save")}
                </Button>
              </InlineStack>
            </FormLayout>
          </Card>
        ) : null}
      </BlockStack>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}
