import { useFetcher } from "@remix-run/react";
import { BlockStack, Box, Button, Card, Icon, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import { CheckCircleIcon } from "@shopify/polaris-icons";
import { useTranslation } from "react-i18next";
import type { SetupGuide } from "~/models/setup/setup-guide";

// The dashboard's setup guide: each step ticked from the shop's own data,
// with a link to the screen that does it. Hiding it is saved for the shop
// (a POST to the dashboard's action), so it stays hidden for everyone.

export function SetupGuideCard({
  guide,
  role,
  themeEditorUrl,
}: {
  guide: SetupGuide;
  role: string;
  themeEditorUrl: string;
}) {
  const { t } = useTranslation("Dashboard");
  const fetcher = useFetcher();
  if (fetcher.state !== "idle" || fetcher.data) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            {t("setup.title")}
          </Text>
          <Button
            variant="plain"
            onClick={() => fetcher.submit({ intent: "dismiss_setup" }, { method: "post", encType: "application/json" })}
          >
            {t("setup.dismiss")}
          </Button>
        </InlineStack>
        <BlockStack gap="100">
          <Text as="p" tone="subdued" id="setup-progress">
            {t("setup.progress", { done: guide.done, total: guide.total })}
          </Text>
          <ProgressBar progress={(guide.done / guide.total) * 100} size="small" tone="success" />
        </BlockStack>
        <BlockStack gap="0">
          {guide.steps.map((step) => (
            <Box key={step.key} paddingBlock="200" borderBlockStartWidth="025" borderColor="border-secondary">
              <div data-setup-step={step.key} data-done={step.done ? "true" : "false"}>
                <InlineStack gap="300" wrap={false} blockAlign="start" align="space-between">
                  <InlineStack gap="200" wrap={false} blockAlign="start">
                    <span aria-label={step.done ? t("setup.done") : t("setup.todo")} role="img">
                      {step.done ? (
                        <Icon source={CheckCircleIcon} tone="success" />
                      ) : (
                        // An empty ring the size of the icon: Polaris has no outlined circle.
                        <span
                          style={{
                            display: "block",
                            width: 16,
                            height: 16,
                            margin: 2,
                            borderRadius: "50%",
                            border: "1.5px dashed var(--p-color-icon-secondary, #8a8a8a)",
                          }}
                        />
                      )}
                    </span>
                    <BlockStack gap="050">
                      <Text as="h3" fontWeight="semibold" tone={step.done ? "subdued" : undefined}>
                        {t(`setup.steps.${step.key}.title`)}
                      </Text>
                      {step.done ? null : (
                        <Text as="p" tone="subdued">
                          {t(`setup.steps.${step.key}.body`)}
                        </Text>
                      )}
                    </BlockStack>
                  </InlineStack>
                  {step.done ? null : (
                    <Button
                      url={step.screen === "themeEditor" ? themeEditorUrl : `/${role}/${step.screen}`}
                      external={step.screen === "themeEditor"}
                    >
                      {t(`setup.steps.${step.key}.action`)}
                    </Button>
                  )}
                </InlineStack>
              </div>
            </Box>
          ))}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}
