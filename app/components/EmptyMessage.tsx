import { BlockStack, Box, Text } from "@shopify/polaris";

/** A list's empty state without an illustration (the app ships no images for it). */
export function EmptyMessage({ heading, body }: { heading: string; body: string }) {
  return (
    <Box padding="800">
      <BlockStack gap="200" inlineAlign="center">
        <Text as="p" variant="headingMd" alignment="center">
          {heading}
        </Text>
        <Text as="p" tone="subdued" alignment="center">
          {body}
        </Text>
      </BlockStack>
    </Box>
  );
}
