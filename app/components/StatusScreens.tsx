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

/** A screen whose content is built in a later issue: title plus a plain notice. */
export function NotBuiltYet({ title, backUrl }: { title: string; backUrl?: string }) {
  const { t } = useTranslation("Global");
  return (
    <Page title={title} backAction={backUrl ? { url: backUrl } : undefined}>
      <Card>
        <EmptyState heading={t("notBuilt.heading", { screen: title })} image="">
          <p>{t("notBuilt.body")}</p>
        </EmptyState>
      </Card>
    </Page>
  );
}
