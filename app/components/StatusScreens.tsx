import { Card, EmptyState, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { NO_ACCESS_ILLUSTRATION, NOT_FOUND_ILLUSTRATION } from "./empty-illustration";

export function ForbiddenScreen({ dashboardUrl }: { dashboardUrl: string }) {
  const { t } = useTranslation("Global");
  return (
    <Page title={t("forbidden.title")}>
      <Card>
        <EmptyState
          heading={t("forbidden.heading")}
          action={{ content: t("backToDashboard"), url: dashboardUrl }}
          image={NO_ACCESS_ILLUSTRATION}
        >
          <p>{t("forbidden.body")}</p>
        </EmptyState>
      </Card>
    </Page>
  );
}

export function NotFoundScreen({ dashboardUrl }: { dashboardUrl: string }) {
  const { t } = useTranslation("Global");
  return (
    <Page title={t("notFound.title")}>
      <Card>
        <EmptyState
          heading={t("notFound.heading")}
          action={{ content: t("backToDashboard"), url: dashboardUrl }}
          image={NOT_FOUND_ILLUSTRATION}
        >
          <p>{t("notFound.body")}</p>
        </EmptyState>
      </Card>
    </Page>
  );
}

/**
 * A page asked for with query values it cannot use (an edited or stale
 * address): what was wrong, field by field, and the way back to the page's
 * usual view.
 */
export function BadRequestScreen({
  message,
  fields,
  startOverUrl,
}: {
  message?: string;
  fields?: Record<string, string>;
  startOverUrl: string;
}) {
  const { t } = useTranslation("Global");
  return (
    <Page title={t("badRequest.title")}>
      <Card>
        <EmptyState
          heading={t("badRequest.heading")}
          action={{ content: t("badRequest.startOver"), url: startOverUrl }}
          image=""
        >
          <p>{t("badRequest.body")}</p>
          {message ? <p>{message}</p> : null}
          {fields ? (
            <ul>
              {Object.entries(fields).map(([name, text]) => (
                <li key={name}>
                  <code>{name}</code>: {text}
                </li>
              ))}
            </ul>
          ) : null}
        </EmptyState>
      </Card>
    </Page>
  );
}
