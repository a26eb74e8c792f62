import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Card,
  Divider,
  InlineStack,
  Layout,
  Link,
  Modal,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CheckOutcomeBadge, ReferralStatusBadge, useRewardText } from "~/components/referrals/ReferralBadges";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { useFormat } from "~/i18n/format";
import { translateMessage, useTranslatedError } from "~/i18n/messages";
import type { ErrorBody } from "~/lib/errors";
import { displayZone } from "~/lib/shop-day";
import { overrideReferral } from "~/models/referrals/override-referral.server";
import { getReferralDetail } from "~/models/referrals/referral-detail.server";
import { OVERRIDE_NOTE_MAX, referralOverrideSchema } from "~/models/referrals/referral-history-query";
import { orderLink } from "~/models/referrals/referral-view";
import { useShell } from "./$role";

// /{role}/referrals/{id}: one referral — advocate, friend, order, why it
// counts, the fraud checks and what each found, the reward and its hold, the
// merchant's override — with approve (a blocked one) or block (a pending
// one), each with a note.
export const handle: RouteHandle = {
  i18n: ["Referrals", "Referrals.ReferralHistory", "Global"],
  title: "Referrals:detailTitle",
};

const params = idParams("referral");

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "referrals", feature: "referAFriend", params },
  async ({ db, params }) => ({ referral: await getReferralDetail(db, params.id) }),
);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "referrals", feature: "referAFriend", params, body: referralOverrideSchema },
  async ({ db, params, body, user }) => {
    // Another shop's id is a 404 here too, before anything is decided.
    await getReferralDetail(db, params.id);
    await overrideReferral(db, { referralId: params.id, decision: body.intent, note: body.note, by: user.email });
    return { decided: body.intent };
  },
);

type ActionData = { decided?: "approve" | "block" } & Partial<ErrorBody>;

export default function ReferralScreen() {
  const { referral } = useLoaderData<typeof loader>();
  const { shop, mode } = useShell();
  const { role } = useParams();
  const { t } = useTranslation(["Referrals", "Referrals.ReferralHistory", "Global"]);
  const h = (key: string, values?: Record<string, unknown>) => t(`Referrals.ReferralHistory:${key}`, values);
  const format = useFormat();
  const rewardText = useRewardText();
  const fetcher = useFetcher<ActionData>();
  const [deciding, setDeciding] = useState<"approve" | "block" | null>(null);
  const [note, setNote] = useState("");
  const [toast, setToast] = useState<string | null>(null);
  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.decided) {
      setToast(t(`detail.override.done.${fetcher.data.decided}`));
      setDeciding(null);
      setNote("");
    }
  }, [fetcher.state, fetcher.data, t]);

  const busy = fetcher.state !== "idle";
  const when = (iso: string) => format.dateTime(iso, shop.timezone);
  const day = (iso: string) => format.date(iso, shop.timezone);
  const open = (decision: "approve" | "block") => {
    setNote("");
    setDeciding(decision);
  };
  const submit = () => {
    if (!deciding) return;
    fetcher.submit({ intent: deciding, note }, { method: "post", encType: "application/json" });
  };
  const link = orderLink(referral.order, { mode, role: role ?? "admin", domain: shop.domain });
  const reward = referral.reward;
  const ruleName = (rule: string) => h(`rules.${rule}`, { defaultValue: rule });
  const noteError = deciding ? error?.fields?.note : undefined;

  return (
    <Page
      title={referral.order.name || t("detailTitle")}
      backAction={{ content: h("title"), url: `/${role}/referrals/history` }}
      titleMetadata={<ReferralStatusBadge status={referral.status} />}
      subtitle={`${t("detail.created", { date: when(referral.createdAt) })} · ${t("Global:timeZoneNote", { zone: displayZone(shop.timezone) })}`}
      primaryAction={
        referral.canApprove
          ? { content: t("detail.actions.approve"), onAction: () => open("approve"), disabled: busy }
          : undefined
      }
      secondaryActions={
        referral.canBlock
          ? [{ content: t("detail.actions.block"), destructive: true, onAction: () => open("block"), disabled: busy }]
          : []
      }
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {error && !deciding ? (
              <Banner tone="critical" title={t("detail.notDone")}>
                <p>{error.message}</p>
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t("detail.attribution.title")}
                  </Text>
                  <Badge tone="info">{t(`detail.sources.${referral.source}`, { defaultValue: referral.source })}</Badge>
                </InlineStack>
                <Text as="p" id="referral-reason">
                  {translateMessage(t, referral.reason)}
                </Text>
                {referral.friendCode ? (
                  <Text as="p" tone="subdued">
                    {t("detail.attribution.code", { code: referral.friendCode })}
                  </Text>
                ) : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t("detail.checks.title")}
                  </Text>
                  {referral.blockedRule ? (
                    <Badge tone="critical">
                      {t("detail.checks.blockedBy", { rule: ruleName(referral.blockedRule) })}
                    </Badge>
                  ) : null}
                </InlineStack>
                {referral.checks.length ? (
                  <BlockStack gap="300" as="ul">
                    {referral.checks.map((check, index) => (
                      <BlockStack gap="200" key={`${check.rule}-${index}`} as="li">
                        {index > 0 ? <Divider /> : null}
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span" fontWeight="semibold">
                            {ruleName(check.rule)}
                          </Text>
                          <CheckOutcomeBadge outcome={check.outcome} />
                        </InlineStack>
                        <Text as="p" tone="subdued" id={`check-${check.rule}`}>
                          {t(check.detail, { ...check.values, defaultValue: t("detail.checks.noDetail") })}
                        </Text>
                      </BlockStack>
                    ))}
                  </BlockStack>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("detail.checks.none")}
                  </Text>
                )}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("detail.reward.title")}
                </Text>
                <Text as="p" fontWeight="semibold">
                  {rewardText(reward)}
                </Text>
                <Text as="p" id="reward-state">
                  {t(`detail.reward.${reward.state}`, {
                    date:
                      reward.state === "given" && reward.rewardedAt
                        ? day(reward.rewardedAt)
                        : reward.state === "cancelled" && referral.cancelledAt
                          ? day(referral.cancelledAt)
                          : day(referral.holdUntil),
                  })}
                </Text>
                <Text as="p" tone="subdued">
                  {t("detail.reward.holdUntil", { date: when(referral.holdUntil) })}
                </Text>
                {reward.code ? <Text as="p">{t("detail.reward.code", { code: reward.code })}</Text> : null}
                {reward.kind === "store_credit" && reward.gid ? (
                  <Text as="p">{t("detail.reward.storeCredit")}</Text>
                ) : null}
                {reward.payoutId ? (
                  <Link url={`/${role}/payouts/${reward.payoutId}`}>{t("detail.reward.payout")}</Link>
                ) : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("detail.override.title")}
                </Text>
                {referral.override ? (
                  <BlockStack gap="100">
                    <Text as="p" tone="subdued">
                      {t("detail.override.by", { by: referral.override.by, date: when(referral.override.at) })}
                    </Text>
                    <Text as="p" id="override-note">
                      {referral.override.note}
                    </Text>
                  </BlockStack>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("detail.override.none")}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("detail.advocate.title")}
                </Text>
                <Text as="p" fontWeight="semibold" breakWord>
                  {referral.advocate.email}
                </Text>
                {referral.advocate.firstName ? <Text as="p">{referral.advocate.firstName}</Text> : null}
                {referral.advocate.friendCode ? (
                  <Text as="p">{t("detail.advocate.code", { code: referral.advocate.friendCode })}</Text>
                ) : null}
                <Text as="p">{t("detail.advocate.referrals", { count: referral.advocate.referrals })}</Text>
                <Text as="p" tone="subdued">
                  {t("detail.advocate.since", { date: day(referral.advocate.since) })}
                </Text>
                {referral.advocate.disabled ? <Badge>{t("detail.advocate.disabled")}</Badge> : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("detail.friend.title")}
                </Text>
                <Text as="p" breakWord>
                  {referral.friend.email ?? t("detail.friend.noEmail")}
                </Text>
                {referral.friend.customerGid ? (
                  <Text as="p" tone="subdued">
                    {t("detail.friend.customer", {
                      id: referral.friend.customerGid.slice(referral.friend.customerGid.lastIndexOf("/") + 1),
                    })}
                  </Text>
                ) : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("detail.order.title")}
                </Text>
                {link ? (
                  <Link url={link}>
                    {referral.order.saleId && mode !== "embedded"
                      ? t("detail.order.openSale", { name: referral.order.name })
                      : t("detail.order.openInShopify", { name: referral.order.name })}
                  </Link>
                ) : (
                  <Text as="p">{referral.order.name}</Text>
                )}
                <Text as="p">
                  {t("detail.order.total", { amount: format.money(referral.order.total, referral.order.currency) })}
                </Text>
                <Text as="p" tone="subdued">
                  {t("detail.order.placed", { date: when(referral.order.placedAt) })}
                </Text>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <Modal
        open={deciding !== null}
        onClose={() => setDeciding(null)}
        title={deciding ? t(`detail.override.${deciding}Title`) : ""}
        primaryAction={{
          content: deciding ? t(`detail.actions.${deciding}`) : "",
          destructive: deciding === "block",
          loading: busy,
          onAction: submit,
        }}
        secondaryActions={[{ content: t("detail.override.cancel"), onAction: () => setDeciding(null) }]}
      >
        <Modal.Section>
          <BlockStack gap="300">
            {error && !noteError ? (
              <Banner tone="critical" title={t("detail.notDone")}>
                <p>{error.message}</p>
              </Banner>
            ) : null}
            <Text as="p">{deciding ? t(`detail.override.${deciding}Body`) : ""}</Text>
            <TextField
              label={t("detail.override.note")}
              helpText={t("detail.override.noteHelp")}
              value={note}
              onChange={setNote}
              multiline={3}
              maxLength={OVERRIDE_NOTE_MAX}
              showCharacterCount
              autoComplete="off"
              error={noteError}
              requiredIndicator
            />
          </BlockStack>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
