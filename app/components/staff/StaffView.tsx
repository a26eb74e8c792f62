import { useTranslatedError } from "~/i18n/messages";
import { useFetcher, useParams } from "@remix-run/react";
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
  Modal,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { STAFF_AREAS } from "~/lib/areas";
import type { ErrorBody } from "~/lib/errors";
import { FormErrorBanner } from "../FormErrorBanner";
import { EmptyMessage } from "../EmptyMessage";

interface StaffRow {
  id: string;
  email: string;
  name: string;
  status: string;
  permissions: string[];
  lastLoginAt: string | null;
}

interface Answer extends Partial<ErrorBody> {
  intent?: string;
  inviteUrl?: string;
  email?: string;
}

const TONE: Record<string, "success" | "attention" | "critical"> = {
  active: "success",
  invited: "attention",
  disabled: "critical",
};

/** Settings > Staff: invite with permissions per area, edit, disable, new link, remove. */
export function StaffView({ staff }: { staff: StaffRow[] }) {
  const { t } = useTranslation(["Settings", "TopMenu", "Global"]);
  const { role } = useParams();
  const fetcher = useFetcher<Answer>();
  const [editing, setEditing] = useState<StaffRow | "new" | null>(null);
  const [form, setForm] = useState({ email: "", name: "", permissions: [] as string[] });
  const [link, setLink] = useState<string | null>(null);
  const [removing, setRemoving] = useState<StaffRow | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const seen = useRef<Answer | undefined>(undefined);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || seen.current === fetcher.data) return;
    seen.current = fetcher.data;
    if (fetcher.data.error) return;
    if (fetcher.data.inviteUrl) setLink(fetcher.data.inviteUrl);
    if (fetcher.data.intent === "invite" || fetcher.data.intent === "update") setEditing(null);
    // Editing a member is a save like any other settings save: one wording.
    const intent = fetcher.data.intent;
    setToast(intent === "update" ? t("Global:saveSuccessful") : t(`Settings:staff.done.${intent}`));
  }, [fetcher.state, fetcher.data, t]);

  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  const fields = editing ? (error?.fields ?? {}) : {};
  const areaLabel = (area: string) => t(`Settings:staff.areas.${area}`);
  const send = (intent: string, id: string) => fetcher.submit({ intent, id }, { method: "post" });

  function open(row: StaffRow | "new") {
    setEditing(row);
    setForm(
      row === "new"
        ? { email: "", name: "", permissions: [] }
        : { email: row.email, name: row.name, permissions: row.permissions },
    );
  }

  function save() {
    const permissions = form.permissions.join(",");
    if (editing === "new")
      fetcher.submit({ intent: "invite", email: form.email, name: form.name, permissions }, { method: "post" });
    else if (editing)
      fetcher.submit({ intent: "update", id: editing.id, name: form.name, permissions }, { method: "post" });
  }

  return (
    <Page
      title={t("Settings:tabs.staff")}
      backAction={{ url: `/${role}/settings` }}
      primaryAction={{ content: t("Settings:staff.invite"), onAction: () => open("new") }}
    >
      <BlockStack gap="400">
        {link ? (
          <Banner tone="success" title={t("Settings:staff.linkTitle")} onDismiss={() => setLink(null)}>
            <BlockStack gap="200">
              <p>{t("Settings:staff.linkBody")}</p>
              <TextField
                label={t("Settings:staff.link")}
                labelHidden
                autoComplete="off"
                readOnly
                value={link}
                name="invite_link"
              />
              <InlineStack>
                <Button
                  onClick={() =>
                    void navigator.clipboard?.writeText(link).then(() => setToast(t("Settings:staff.copied")))
                  }
                >
                  {t("Settings:staff.copy")}
                </Button>
              </InlineStack>
            </BlockStack>
          </Banner>
        ) : null}
        <FormErrorBanner error={editing ? undefined : error} />
        <Card padding="0">
          <IndexTable
            resourceName={{ singular: t("Settings:staff.singular"), plural: t("Settings:staff.plural") }}
            itemCount={staff.length}
            selectable={false}
            emptyState={<EmptyMessage heading={t("Settings:staff.empty")} body={t("Settings:staff.emptyBody")} />}
            headings={[
              { title: t("Global:fields.name") },
              { title: t("Global:fields.email") },
              { title: t("Global:fields.status") },
              { title: t("Settings:staff.permissions") },
              { title: t("Settings:staff.actions") },
            ]}
          >
            {staff.map((row, index) => (
              <IndexTable.Row id={row.id} key={row.id} position={index}>
                <IndexTable.Cell>
                  <Text as="span" fontWeight="semibold">
                    {row.name}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>{row.email}</IndexTable.Cell>
                <IndexTable.Cell>
                  <Badge tone={TONE[row.status]}>{t(`Settings:staff.status.${row.status}`)}</Badge>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  {row.permissions.map(areaLabel).join(", ") || t("Settings:staff.noPermissions")}
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <InlineStack gap="200">
                    <Button size="slim" onClick={() => open(row)}>
                      {t("Settings:staff.edit")}
                    </Button>
                    {row.status !== "disabled" ? (
                      <Button size="slim" onClick={() => send("renew", row.id)}>
                        {t("Settings:staff.renew")}
                      </Button>
                    ) : null}
                    <Button size="slim" onClick={() => send(row.status === "disabled" ? "enable" : "disable", row.id)}>
                      {row.status === "disabled" ? t("Settings:staff.enable") : t("Settings:staff.disable")}
                    </Button>
                    <Button size="slim" tone="critical" onClick={() => setRemoving(row)}>
                      {t("Settings:staff.remove")}
                    </Button>
                  </InlineStack>
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
        <Text as="p" tone="subdued">
          {t("Settings:staff.mailNote")}
        </Text>
      </BlockStack>
      <Modal
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === "new" ? t("Settings:staff.inviteTitle") : t("Settings:staff.editTitle")}
        primaryAction={{
          content: editing === "new" ? t("Settings:staff.send") : t("Global:save"),
          onAction: save,
          loading: fetcher.state !== "idle",
        }}
        secondaryActions={[{ content: t("Settings:staff.cancel"), onAction: () => setEditing(null) }]}
      >
        <Modal.Section>
          <BlockStack gap="400">
            <FormErrorBanner error={editing ? error : undefined} />
            <FormLayout>
              <TextField
                label={t("Global:fields.email")}
                name="email"
                type="email"
                autoComplete="off"
                value={form.email}
                disabled={editing !== "new"}
                onChange={(email) => setForm({ ...form, email })}
                error={fields.email}
              />
              <TextField
                label={t("Global:fields.name")}
                name="name"
                autoComplete="off"
                value={form.name}
                onChange={(name) => setForm({ ...form, name })}
                error={fields.name}
              />
              <ChoiceList
                allowMultiple
                title={t("Settings:staff.permissions")}
                choices={STAFF_AREAS.map((area) => ({ label: areaLabel(area), value: area }))}
                selected={form.permissions}
                onChange={(permissions) => setForm({ ...form, permissions })}
                error={fields.permissions}
              />
            </FormLayout>
          </BlockStack>
        </Modal.Section>
      </Modal>
      <Modal
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={t("Settings:staff.removeTitle", { name: removing?.name ?? "" })}
        primaryAction={{
          content: t("Settings:staff.remove"),
          destructive: true,
          onAction: () => {
            if (removing) send("remove", removing.id);
            setRemoving(null);
          },
        }}
        secondaryActions={[{ content: t("Settings:staff.cancel"), onAction: () => setRemoving(null) }]}
      >
        <Modal.Section>
          <Text as="p">{t("Settings:staff.removeBody")}</Text>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}
