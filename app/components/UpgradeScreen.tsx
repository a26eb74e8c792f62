import { isRouteErrorResponse } from "@remix-run/react";
import { Card, EmptyState, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { NO_ACCESS_ILLUSTRATION } from "./empty-illustration";

export interface UpgradeInfo {
  feature: string;
  plan: string | null;
  plansUrl: string | null;
}

/** The upgrade prompt an error carries (the door's 403 for a feature the plan lacks), if any. */
export function upgradeOf(error: unknown): UpgradeInfo | null {
  if (!isRouteErrorResponse(error) || error.status !== 403) return null;
  return (error.data as { upgrade?: UpgradeInfo } | null)?.upgrade ?? null;
}

/** What the door's plan check answers (app/door/plan-check.server.ts): why, and where to upgrade. */
export function UpgradeScreen({ upgrade, dashboardUrl }: { upgrade: UpgradeInfo; dashboardUrl: string }) {
  const { t, ready } = useTranslation("Plans");
  // After a client-side navigation the namespace may still be on its way: no raw keys meanwhile.
  if (!ready) return null;
  const feature = t(`features.${upgrade.feature}`);
  const plan = upgrade.plan ? t(`plans.${upgrade.plan}.name`) : "";
  return (
    <Page title={t("upgradeTitle")}>
      <Card>
        <EmptyState
          heading={t("upgradeHeading", { feature })}
          action={
            upgrade.plansUrl
              ? { content: t("upgradeAction"), url: upgrade.plansUrl }
              : { content: t("backToDashboard"), url: dashboardUrl }
          }
          secondaryAction={upgrade.plansUrl ? { content: t("backToDashboard"), url: dashboardUrl } : undefined}
          image={NO_ACCESS_ILLUSTRATION}
        >
          <p>{plan ? t("upgradeBody", { feature, plan }) : t("upgradeBodyNoPlan", { feature })}</p>
          {upgrade.plansUrl ? null : <p>{t("upgradeAskAdmin")}</p>}
        </EmptyState>
      </Card>
    </Page>
  );
}
