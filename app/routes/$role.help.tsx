import { BlockStack, Box, Button, Card, InlineStack, Layout, Link, List, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { areaPage } from "~/door/merchant-route.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { areaCheck } from "~/lib/dashboard-access";
import { MENU_ITEMS } from "~/lib/menu";
import { useShell } from "./$role";

// "Help docs": a section per admin screen, in the shop's language, linking
// to the screen. Sections of screens the user may not open are left out.

export const loader = /* @__PURE__ */ areaPage("any");
export const handle: RouteHandle = { i18n: ["Instructions", "TopMenu"], title: "Instructions:help.title" };

const STEPS = 5;
const SCREENS = [
  { key: "dashboard", path: "dashboard", area: "any" },
  ...MENU_ITEMS.filter((item) => item.key !== "contactUs"),
] as const;

export default function Help() {
  const { t } = useTranslation(["Instructions", "TopMenu"]);
  const { role, user } = useShell();
  const can = areaCheck(user);
  const screens = SCREENS.filter((s) => s.area === "any" || can(s.area));
  return (
    <Page title={t("help.title")}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="p">{t("help.intro")}</Text>
              <Text as="h2" variant="headingMd" id="getting-started">
                {t("title")}
              </Text>
              <List type="number">
                {Array.from({ length: STEPS }, (_, i) => (
                  <List.Item key={i}>{t(`step${i + 1}`)}</List.Item>
                ))}
              </List>
              <Text as="h2" variant="headingSm">
                {t("help.contents")}
              </Text>
              <InlineStack gap="300" wrap>
                {screens.map((s) => (
                  <Link key={s.key} url={`#help-${s.key}`}>
                    {t(`TopMenu:${s.key}`)}
                  </Link>
                ))}
              </InlineStack>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="300">
            {screens.map((s) => (
              <Card key={s.key}>
                <Box id={`help-${s.key}`}>
                  <BlockStack gap="200">
                    <InlineStack align="space-between" blockAlign="center" gap="200">
                      <Text as="h2" variant="headingMd">
                        {t(`TopMenu:${s.key}`)}
                      </Text>
                      <Button
                        url={`/${role}/${s.path}`}
                        accessibilityLabel={`${t("help.open")}: ${t(`TopMenu:${s.key}`)}`}
                      >
                        {t("help.open")}
                      </Button>
                    </InlineStack>
                    <Text as="p">{t(`help.sections.${s.key}`)}</Text>
                  </BlockStack>
                </Box>
              </Card>
            ))}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
