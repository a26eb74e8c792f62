import { useRouteLoaderData } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { TimeZoneNote } from "../TimeZoneNote";

/**
 * The zone an affiliate's dates are shown in: the shop's (affiliates have no
 * zone of their own), from the account layout's data.
 */
export function useAccountTimeZone(): string {
  const layout = useRouteLoaderData("routes/account") as { shop?: { timezone?: string } } | undefined;
  return layout?.shop?.timezone ?? "UTC";
}

/** An account page; `dated` pages show dates and say which zone they are in. */
export function AccountPage({
  title,
  dated = false,
  children,
}: {
  title: string;
  dated?: boolean;
  children: ReactNode;
}) {
  const zone = useAccountTimeZone();
  return (
    <BlockStack gap="400">
      <BlockStack gap="100">
        <Text as="h1" variant="headingXl">
          {title}
        </Text>
        {dated ? <TimeZoneNote zone={zone} /> : null}
      </BlockStack>
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
