import { useBlocker } from "@remix-run/react";
import { Modal, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/**
 * Spec section 4: "Leave page with unsaved changes?" with "Leave page" and
 * "Stay". In-app navigation is blocked while `dirty`; closing or reloading
 * the tab gets the browser's own prompt.
 */
export function UnsavedChangesPrompt({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation("Global");
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  return (
    <Modal
      open={blocker.state === "blocked"}
      onClose={() => blocker.reset?.()}
      title={t("unsaved.title")}
      primaryAction={{ content: t("unsaved.leave"), destructive: true, onAction: () => blocker.proceed?.() }}
      secondaryActions={[{ content: t("unsaved.stay"), onAction: () => blocker.reset?.() }]}
    >
      <Modal.Section>
        <Text as="p">{t("unsaved.body")}</Text>
      </Modal.Section>
    </Modal>
  );
}
