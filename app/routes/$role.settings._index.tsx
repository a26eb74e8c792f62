import { Card, Page, ResourceItem, ResourceList, Text } from "@shopify/polaris";
import { useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { SETTINGS_NAMESPACES, SETTINGS_TABS } from "~/lib/settings-tabs";
import { areaPage } from "~/door/merchant-route.server";
import { useShell } from "./$role";
import type { RouteHandle } from "~/i18n/route-handle";

// Staff management is a settings page for admins only (staff never manage staff).
const STAFF_ITEM = { tab: "staff", ns: "Settings", titleKey: "tabs.staff", key: "staff" } as const;

export const loader = /* @__PURE__ */ areaPage("settings");
export const handle: RouteHandle = { i18n: SETTINGS_NAMESPACES, title: "Settings:title" };

export default function SettingsIndex() {
  const { t } = useTranslation(SETTINGS_NAMESPACES);
  const { role } = useParams();
  const { user } = useShell();
  const items = user.role === "admin" ? [...SETTINGS_TABS, STAFF_ITEM] : [...SETTINGS_TABS];
  return (
    <Page title={t("Settings:title")}>
      <Card padding="0">
        <ResourceList
          items={items}
          renderItem={(item) => (
            <ResourceItem
              id={item.tab}
              url={`/${role}/settings/${item.tab}`}
              accessibilityLabel={t(`${item.ns}:${item.titleKey}`)}
            >
              <Text as="h3" variant="bodyMd" fontWeight="semibold">
                {t(`${item.ns}:${item.titleKey}`)}
              </Text>
              <Text as="p" tone="subdued">
                {t(`Settings:descriptions.${item.key}`)}
              </Text>
            </ResourceItem>
          )}
        />
      </Card>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
