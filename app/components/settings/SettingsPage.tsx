import { useParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Page, type PageProps } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppToast } from "../AppToast";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";

/** What a tab's save reports to its page (`useSettingsForm` returns it). */
interface SettingsSave {
  dirty: boolean;
  busy: boolean;
  save: () => void;
  /** An error of the answer; field errors are shown at their fields, the rest above the form. */
  serverError?: { message: string; fields?: Record<string, string> } | null;
  toast: boolean;
  dismissToast: () => void;
  /** Whether the form may be saved besides being changed (e.g. a field that does not parse). */
  valid?: boolean;
}

/**
 * The page of every settings tab: the way back to Settings, the Save action
 * (enabled once something changed), the unsaved-changes prompt, an error of
 * the save that belongs to no field, Save again below the form, and the one
 * "Save successful" toast.
 * A tab that saves nothing (Networks) passes no `form`.
 */
export function SettingsPage({
  title,
  form,
  children,
  ...page
}: { title: string; form?: SettingsSave; children: ReactNode } & Omit<
  PageProps,
  "title" | "backAction" | "primaryAction" | "children"
>) {
  const { t } = useTranslation(["Settings", "Global"]);
  const { role } = useParams();
  const error = form?.serverError && !form.serverError.fields ? form.serverError : null;
  return (
    <Page
      {...page}
      title={title}
      backAction={{ content: t("Settings:title"), url: `/${role}/settings` }}
      primaryAction={
        form
          ? {
              content: t("Global:save"),
              onAction: form.save,
              disabled: !form.dirty || form.valid === false,
              loading: form.busy,
            }
          : undefined
      }
    >
      {form ? <UnsavedChangesPrompt dirty={form.dirty} /> : null}
      <BlockStack gap="400">
        {error ? (
          <Banner tone="critical">
            <p>{error.message}</p>
          </Banner>
        ) : null}
        {children}
        {form ? (
          <div>
            <Button
              variant="primary"
              onClick={form.save}
              disabled={!form.dirty || form.valid === false}
              loading={form.busy}
            >
              {t("Global:save")}
            </Button>
          </div>
        ) : null}
      </BlockStack>
      {form?.toast ? <AppToast content={t("Global:saveSuccessful")} onDismiss={form.dismissToast} /> : null}
    </Page>
  );
}
