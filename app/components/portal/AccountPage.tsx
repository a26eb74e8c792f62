import { BlockStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export function AccountPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <BlockStack gap="400">
      <Text as="h1" variant="headingXl">
        {title}
      </Text>
      {children}
    </BlockStack>
  );
}

export const STATUS_TONE: Record<string, "success" | "attention" | "critical" | "info" | undefined> = {
  approved: "success",
  paid: "success",
  pending: "attention",
  processing: "info",
  denied: "critical",
  failed: "critical",
  void: undefined,
};
