import { useTranslatedError } from "~/i18n/messages";
import { useFetcher, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Card,
  ContextualSaveBar,
  InlineStack,
  Layout,
  Link,
  Page,
  Text,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import type { ErrorBody } from "~/lib/errors";
import { ReadOnlyBanner } from "~/components/PlanLimitBanner";
import { FormErrorBanner } from "../FormErrorBanner";
import type { AffiliateDetail, MoneyTotal } from "~/models/affiliates/affiliate-detail.server";
import { nextStatus } from "~/models/affiliates/status-transitions";
import { STATUS_ACTIONS } from "~/models/affiliates/admin-schemas";
import { useShell } from "~/components/shell-data";
import { TimeZoneNote } from "../TimeZoneNote";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";
import { AffiliateActivity } from "./AffiliateActivity";
import { AffiliateAliases } from "./AffiliateAliases";
import { AffiliateFields, type AffiliateFormValues } from "./AffiliateFields";
import { AffiliateStatusBadge } from "./StatusBadge";
import { TierMoves } from "../tiers/TierMoves";
import { AffiliateNetwork } from "../networks/AffiliateNetwork";
import type { LevelData } from "../networks/NetworkTree";

type Json<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T;
export type DetailData = Json<AffiliateDetail> & {
  links: { referral_link: string; store_link: string };
  campaigns: { id: string; name: string; isDefault: boolean }[];
  network?: { uplines: { id: string; name: string; level: number }[]; downline: LevelData };
  tierMoves?: {
    id: string;
    fromCampaignId: string;
    toCampaignId: string;
    reason: string;
    reasonKey: string;
    reasonValues: string;
    undo: string | null;
    createdAt: string;
  }[];
  /** Over the plan's affiliate limit (a downgrade): shown, not editable. */
  readOnly?: boolean;
};

interface Answer extends Partial<ErrorBody> {
  intent?: string;
  saved?: boolean;
  changed?: number;
}

function toValues(a: DetailData["affiliate"]): AffiliateFormValues {
  return {
    email: a.email,
    first_name: a.firstName,
    last_name: a.lastName,
    status: a.status,
    campaign_id: a.campaignId,
    referral_code: a.referralCode,
    coupon_codes: a.coupons.join(", "),
    upline: a.parent?.referralCode ?? "",
  };
}

/** An affiliate: edit form (contextual save bar), approvals, stats, latest sales, commissions and clicks. */
export function AffiliateDetailView({ data }: { data: DetailData }) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const format = useFormat();
  const { role } = useParams();
  const { shop } = useShell();
  const fetcher = useFetcher<Answer>();
  const saved = useMemo(() => toValues(data.affiliate), [data.affiliate]);
  const [values, setValues] = useState(saved);
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => setValues(saved), [saved]);

  const seen = useRef<Answer | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || seen.current === fetcher.data) return;
    seen.current = fetcher.data;
    if (fetcher.data.saved) setToast(t("Global:saveSuccessful"));
    else if (fetcher.data.changed) setToast(t(`Affiliates:detail.done.${fetcher.data.intent}`));
  }, [fetcher.state, fetcher.data, t]);

  const a = data.affiliate;
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const busy = fetcher.state !== "idle";
  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  const money = (totals: MoneyTotal[]) => format.moneyTotals(totals, shop.currency);

  const statusActions = STATUS_ACTIONS.filter((action) => nextStatus(action, a.status)).map((action) => ({
    content: t(`Affiliates:actions.${action}`),
    destructive: action !== "approve",
    // Over the plan's limit: the server refuses it; the banner says why.
    disabled: busy || dirty || Boolean(data.readOnly),
    onAction: () => fetcher.submit({ intent: action }, { method: "post" }),
  }));
  const [primary, ...secondary] = statusActions;

  const stat = (label: string, value: string | number) => (
    <InlineStack align="space-between" key={label}>
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span" fontWeight="semibold">
        {value}
      </Text>
    </InlineStack>
  );

  return (
    <Page
      title={`${a.firstName} ${a.lastName}`.trim()}
      subtitle={a.email}
      titleMetadata={<AffiliateStatusBadge status={a.status} />}
      backAction={{ content: t("Affiliates:title"), url: `/${role}/affiliates` }}
      primaryAction={primary}
      secondaryActions={secondary}
    >
      <UnsavedChangesPrompt dirty={dirty} />
      {dirty ? (
        <ContextualSaveBar
          message={t("Affiliates:detail.unsaved")}
          saveAction={{
            content: t("Global:save"),
            loading: busy,
            onAction: () => fetcher.submit({ intent: "update", ...values }, { method: "post" }),
          }}
          discardAction={{ content: t("Affiliates:detail.discard"), onAction: () => setValues(saved) }}
        />
      ) : null}
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {data.readOnly ? (
              <ReadOnlyBanner limit="affiliates" plansUrl={role === "admin" ? "/admin/plans" : null} />
            ) : null}
            <FormErrorBanner error={error} />
            <Card>
              <BlockStack gap="400">
                <AffiliateFields
                  values={values}
                  onChange={setValues}
                  errors={error?.fields ?? {}}
                  campaigns={data.campaigns}
                />
                <CouponIssues issues={a.couponIssues} />
              </BlockStack>
            </Card>
            <AffiliateActivity data={data} timeZone={shop.timezone} />
            {data.network ? (
              <AffiliateNetwork affiliateId={a.id} uplines={data.network.uplines} downline={data.network.downline} />
            ) : null}
            {data.tierMoves ? (
              <TierMoves moves={data.tierMoves} campaigns={data.campaigns} timeZone={shop.timezone} />
            ) : null}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("Affiliates:detail.performance")}
                </Text>
                {data.money ? stat(t("Affiliates:detail.balance"), money(data.money.balance)) : null}
                {stat(t("Affiliates:detail.clicks"), data.stats.clicks)}
                {stat(t("Affiliates:detail.clicks30"), data.stats.clicks30)}
                {data.money ? (
                  <>
                    {stat(t("Affiliates:detail.sales"), data.money.sales)}
                    {stat(t("Affiliates:detail.revenue"), money(data.money.revenue))}
                    {Object.entries(data.money.commissions).map(([status, totals]) =>
                      stat(
                        t("Affiliates:detail.commissionsBy", { status: t(`Global:status.${status}`) }),
                        money(totals as MoneyTotal[]),
                      ),
                    )}
                  </>
                ) : null}
                <Text as="p" tone="subdued" variant="bodySm">
                  {data.money ? t("Affiliates:detail.balanceHelp") : t("Affiliates:detail.noSalesPermission")}
                </Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("Affiliates:detail.links")}
                </Text>
                <Text as="p" breakWord>
                  {data.links.referral_link}
                </Text>
                <Text as="p" breakWord>
                  {data.links.store_link}
                </Text>
                {stat(t("Affiliates:fields.campaign"), a.campaign.name)}
                {stat(t("Affiliates:detail.recruits"), data.stats.recruits)}
                {a.parent ? (
                  <InlineStack align="space-between">
                    <Text as="span" tone="subdued">
                      {t("Affiliates:fields.upline")}
                    </Text>
                    <Link url={`/${role}/affiliates/${a.parent.id}`}>
                      {`${a.parent.firstName} ${a.parent.lastName}`.trim()}
                    </Link>
                  </InlineStack>
                ) : null}
                {stat(t("Global:fields.dateCreated"), format.dateTime(a.createdAt, shop.timezone))}
                <TimeZoneNote zone={shop.timezone} />
              </BlockStack>
            </Card>
            <AffiliateAliases
              aliases={data.aliases}
              affiliateName={`${a.firstName} ${a.lastName}`.trim()}
              readOnly={Boolean(data.readOnly)}
            />
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("Affiliates:tags.title")}
                </Text>
                {a.tags.length ? (
                  <InlineStack gap="100">
                    {a.tags.map((tag) => (
                      <Link key={tag} url={`/${role}/affiliates?tag=${encodeURIComponent(tag)}`} removeUnderline>
                        <Badge>{tag}</Badge>
                      </Link>
                    ))}
                  </InlineStack>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("Affiliates:tags.none")}
                  </Text>
                )}
              </BlockStack>
            </Card>
            {data.signupAnswers.length ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t("Affiliates:detail.signupAnswers")}
                  </Text>
                  <div data-testid="signup-answers">
                    <BlockStack gap="200">
                      {data.signupAnswers.map((row) => (
                        <BlockStack key={row.id} gap="050">
                          <Text as="span" tone="subdued">
                            {row.label}
                          </Text>
                          <Text as="p" breakWord>
                            {row.type === "checkbox"
                              ? row.value === true
                                ? t("Affiliates:detail.answerYes")
                                : t("Affiliates:detail.answerNo")
                              : typeof row.value === "string"
                                ? row.value
                                : t("Affiliates:detail.noAnswer")}
                          </Text>
                        </BlockStack>
                      ))}
                    </BlockStack>
                  </div>
                </BlockStack>
              </Card>
            ) : null}
          </BlockStack>
        </Layout.Section>
      </Layout>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

/** Typed coupon codes Shopify does not have yet: being created, refused (retried), or no Admin access. */
function CouponIssues({ issues }: { issues: DetailData["affiliate"]["couponIssues"] }) {
  const { t } = useTranslation("Affiliates");
  if (issues.length === 0) return null;
  const failed = issues.filter((i) => i.state === "failed");
  const pending = issues.filter((i) => i.state === "pending");
  const unsynced = issues.filter((i) => i.state === "unsynced");
  return (
    <BlockStack gap="200">
      {failed.length ? (
        <Banner tone="critical" title={t("coupons.failedTitle", { count: failed.length })}>
          <BlockStack gap="100">
            {failed.map((i) => (
              <Text as="p" key={i.code}>
                {t("coupons.failed", { code: i.code, reason: i.error ?? "" })}
              </Text>
            ))}
            <Text as="p" tone="subdued">
              {t("coupons.retrying")}
            </Text>
          </BlockStack>
        </Banner>
      ) : null}
      {pending.length ? (
        <Banner tone="info">
          <p>{t("coupons.pending", { codes: pending.map((i) => i.code).join(", ") })}</p>
        </Banner>
      ) : null}
      {unsynced.length ? (
        <Banner tone="warning">
          <p>{t("coupons.unsynced", { codes: unsynced.map((i) => i.code).join(", ") })}</p>
        </Banner>
      ) : null}
    </BlockStack>
  );
}
