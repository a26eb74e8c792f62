import { EmptyState, type EmptyStateProps } from "@shopify/polaris";
import { EMPTY_ILLUSTRATION } from "./empty-illustration";

/** Polaris' EmptyState with the app's own inline illustration. */
export function EmptyMessage({
  heading,
  body,
  action,
  secondaryAction,
}: { heading: string; body: string } & Pick<EmptyStateProps, "action" | "secondaryAction">) {
  return (
    <EmptyState heading={heading} image={EMPTY_ILLUSTRATION} action={action} secondaryAction={secondaryAction}>
      <p>{body}</p>
    </EmptyState>
  );
}
