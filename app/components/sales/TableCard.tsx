import { BlockStack, Box, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/** A card with a heading and a table flush to its edges, or a line saying there is nothing. */
export function TableCard({ title, emptyText, children }: { title: string; emptyText: string; children: ReactNode }) {
  return (
    <Card padding="0">
      <BlockStack gap="200">
        <Box paddingInline="400" paddingBlockStart="400">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
        </Box>
        {children ? (
          <div className="app-table-card">{children}</div>
        ) : (
          <Box paddingInline="400" paddingBlockEnd="400">
            <Text as="p" tone="subdued">
              {emptyText}
            </Text>
          </Box>
        )}
      </BlockStack>
    </Card>
  );
}
