import type { RouteHandle } from "~/i18n/route-handle";
import { redirect } from "@remix-run/node";
import { NumericCell } from "~/components/NumericCell";
import { useFetcher, useLoaderData, useParams, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  IndexTable,
  InlineStack,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { UnsavedChangesPrompt } from "~/components/UnsavedChangesPrompt";
import { merchantRoute } from "~/door/merchant-route.server";
import { recordId } from "~/door/params";
import { useFormat } from "~/i18n/format";
import { explanationWriter, writeExplanation } from "~/models/commissions/commission-explanation";
import { translateFields, useTranslatedError } from "~/i18n/messages";
import { AppError, type ErrorBody } from "~/lib/errors";
import { currencyExponent } from "~/lib/money";
import { listCampaignChoices } from "~/models/affiliates/admin-affiliates.server";
import {
  deleteBonusRule,
  getBonusRule,
  listBonusLines,
  openPeriodOf,
  reviewBonusLines,
  saveBonusRule,
} from "~/models/bonuses/bonus-admin.server";
import { localDay } from "~/models/bonuses/bonus-periods";
import {
  BONUS_KINDS,
  BONUS_METRICS,
  BONUS_PERIODS,
  BONUS_STATUSES,
  REWARD_TYPES,
  bonusToForm,
  emptyBonusForm,
  parseBonusForm,
  type BonusForm,
  type BonusRuleData,
} from "~/models/bonuses/bonus-form";
import { useShell } from "./$role";

// /{role}/bonuses/new and /{role}/bonuses/{id}: the rule, and the bonus lines
// it earned, reviewed here (pending → approved or denied).
export const handle: RouteHandle = {
  // Sales: the lines' explanations (Sales:explain.bonus.*).
  i18n: ["Bonuses", "Global", "Sales"],
  title: ({ params }) => (params.id === "new" ? "Bonuses:newTitle" : "Bonuses:detailTitle"),
};

const NEW = "new";
const params = z.object({
  id: z.union([z.literal(NEW), recordId("bonus")], { errorMap: () => ({ message: "No bonus with this id." }) }),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "bonuses", params }, async ({ db, shop, params }) => {
  const campaigns = await listCampaignChoices(db);
  const today = localDay(new Date(), shop.timezone);
  if (params.id === NEW) {
    const lines: Awaited<ReturnType<typeof listBonusLines>> = [];
    return { rule: null, lines, campaigns, today, openPeriod: null };
  }
  const rule = await getBonusRule(db, params.id);
  return {
    rule,
    lines: await listBonusLines(db, rule.id),
    campaigns,
    today,
    openPeriod: rule.status === "active" ? openPeriodOf(rule, shop.timezone) : null,
  };
});

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), values: z.unknown() }),
  z.object({ intent: z.literal("delete") }),
  z.object({ intent: z.enum(["approve", "deny"]), ids: z.array(recordId("commission")).min(1).max(500) }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "bonuses", params, body: actionSchema },
  async ({ db, shop, role, params: { id }, body }) => {
    const base = `/${role}/bonuses`;
    if (body.intent === "save") {
      const form = parseBonusForm(body.values, currencyExponent(shop.currency));
      if (!form.ok) throw new AppError("validation_failed", "Some fields are not valid.", { fields: form.fields });
      const saved = await saveBonusRule(db, shop.id, id === NEW ? null : id, form.data);
      if (id === NEW) return redirect(`${base}/${saved.id}?created=1`);
      return { saved: true };
    }
    if (id === NEW) throw new AppError("not_found", "No bonus with this id.");
    if (body.intent === "delete") {
      await deleteBonusRule(db, id);
      return redirect(base);
    }
    return { reviewed: await reviewBonusLines(db, id, body.ids, body.intent) };
  },
);

type ActionData = { saved?: boolean; reviewed?: { changed: number; status: string } } & Partial<ErrorBody>;

export default function BonusDetail() {
  const { rule, lines, campaigns, today, openPeriod } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation(["Bonuses", "Global", "Sales"]);
  const format = useFormat();
  const fetcher = useFetcher<ActionData>();
  const exponent = currencyExponent(shop.currency);
  const saved = useMemo(
    () => (rule ? bonusToForm(rule as BonusRuleData, exponent) : emptyBonusForm(today)),
    [rule, exponent, today],
  );
  const [values, setValues] = useState<BonusForm>(saved);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => setValues(saved), [saved]);
  useEffect(() => {
    if (search.get("created")) setToast(t("toast.created"));
  }, [search, t]);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.saved) setToast(t("Global:saveSuccessful"));
    if (fetcher.data.reviewed)
      setToast(t(`toast.${fetcher.data.reviewed.status}`, { count: fetcher.data.reviewed.changed }));
  }, [fetcher.state, fetcher.data, t]);

  const busy = fetcher.state !== "idle";
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const serverError = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  const errors = clientErrors ? translateFields(t, clientErrors) : (serverError?.fields ?? {});
  const send = (body: Record<string, unknown>) =>
    fetcher.submit(body as never, { method: "post", encType: "application/json" });
  const set =
    <K extends keyof BonusForm>(key: K) =>
    (value: string) =>
      setValues((v) => ({ ...v, [key]: value }));

  function save() {
    const parsed = parseBonusForm(values, exponent);
    if (!parsed.ok) {
      setClientErrors(parsed.fields);
      return;
    }
    setClientErrors(null);
    send({ intent: "save", values });
  }

  const isCount = values.metric === "sales";
  const isBooster = values.kind === "booster";
  const rewardIsPercent = isBooster || values.reward_type === "percent";
  const pending = lines.filter((l) => l.status === "pending").map((l) => l.id);
  const options = <T extends string>(list: readonly T[], prefix: string) =>
    list.map((value) => ({ value, label: t(`${prefix}.${value}`) }));

  return (
    <Page
      title={rule ? rule.name : t("newTitle")}
      backAction={{ content: t("title"), url: `/${role}/bonuses` }}
      titleMetadata={
        rule ? (
          <Badge tone={rule.status === "active" ? "success" : undefined}>{t(`statuses.${rule.status}`)}</Badge>
        ) : null
      }
      primaryAction={{ content: t("Global:save"), onAction: save, disabled: !dirty && Boolean(rule), loading: busy }}
      secondaryActions={
        rule
          ? [{ content: t("delete"), destructive: true, onAction: () => send({ intent: "delete" }), disabled: busy }]
          : []
      }
    >
      <UnsavedChangesPrompt dirty={dirty && !busy} />
      <BlockStack gap="400">
        {serverError && !serverError.fields ? (
          <Banner tone="critical">
            <p>{serverError.message}</p>
          </Banner>
        ) : null}
        <Card>
          <BlockStack gap="300">
            <Text as="p" tone="subdued">
              {t(`explain.${values.kind}`)}
            </Text>
            <FormLayout>
              <TextField
                label={t("fields.name")}
                value={values.name}
                onChange={set("name")}
                error={errors.name}
                autoComplete="off"
              />
              <FormLayout.Group>
                <Select
                  label={t("fields.kind")}
                  options={options(BONUS_KINDS, "kinds")}
                  value={values.kind}
                  onChange={set("kind")}
                />
                <Select
                  label={t("fields.scope")}
                  options={[
                    { value: "", label: t("allAffiliates") },
                    ...campaigns.map((c) => ({ value: c.id, label: c.name })),
                  ]}
                  value={values.campaign_id}
                  onChange={set("campaign_id")}
                  error={errors.campaign_id}
                />
              </FormLayout.Group>
              <FormLayout.Group>
                <Select
                  label={t("fields.metric")}
                  options={options(BONUS_METRICS, "metrics")}
                  value={values.metric}
                  onChange={set("metric")}
                />
                <TextField
                  label={t("fields.threshold")}
                  value={values.threshold}
                  onChange={set("threshold")}
                  error={errors.threshold}
                  autoComplete="off"
                  inputMode={isCount ? "numeric" : "decimal"}
                  suffix={isCount ? t("metrics.sales") : shop.currency}
                />
              </FormLayout.Group>
              <FormLayout.Group>
                {values.kind === "target" ? null : (
                  <Select
                    label={t("fields.period")}
                    options={options(BONUS_PERIODS, "periods")}
                    value={values.period}
                    onChange={set("period")}
                  />
                )}
                {isBooster ? null : (
                  <Select
                    label={t("fields.rewardType")}
                    options={options(REWARD_TYPES, "rewardTypes")}
                    value={values.reward_type}
                    onChange={set("reward_type")}
                  />
                )}
                <TextField
                  label={isBooster ? t("fields.boost") : t("fields.reward")}
                  value={values.reward_value}
                  onChange={set("reward_value")}
                  error={errors.reward_value}
                  autoComplete="off"
                  inputMode="decimal"
                  suffix={rewardIsPercent ? "%" : shop.currency}
                />
              </FormLayout.Group>
              <FormLayout.Group>
                <TextField
                  label={t("fields.startsOn")}
                  type="date"
                  value={values.starts_on}
                  onChange={set("starts_on")}
                  error={errors.starts_on}
                  autoComplete="off"
                />
                <TextField
                  label={t("fields.endsOn")}
                  type="date"
                  value={values.ends_on}
                  onChange={set("ends_on")}
                  error={errors.ends_on}
                  autoComplete="off"
                  helpText={values.kind === "target" ? undefined : t("endsOnHelp")}
                />
                <Select
                  label={t("Global:fields.status")}
                  options={options(BONUS_STATUSES, "statuses")}
                  value={values.status}
                  onChange={set("status")}
                />
              </FormLayout.Group>
            </FormLayout>
            <Text as="p" tone="subdued">
              {t("rules.evaluation")} {t("rules.stacking")} {t("rules.refunds")}
            </Text>
          </BlockStack>
        </Card>
        {rule ? (
          <Card padding="0">
            <BlockStack gap="200">
              <InlineStack align="space-between" blockAlign="center" gap="200">
                <div style={{ padding: "16px 16px 0" }}>
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingMd">
                      {t("lines.title")}
                    </Text>
                    <Text as="p" tone="subdued">
                      {openPeriod
                        ? t("lines.openPeriod", {
                            from: format.date(`${openPeriod.firstDay}T12:00:00Z`, "UTC"),
                            to: format.date(`${openPeriod.lastDay}T12:00:00Z`, "UTC"),
                          })
                        : t("lines.noOpenPeriod")}
                    </Text>
                  </BlockStack>
                </div>
                <div style={{ padding: "16px 16px 0" }}>
                  <Button disabled={!pending.length || busy} onClick={() => send({ intent: "approve", ids: pending })}>
                    {t("lines.approveAll", { count: pending.length })}
                  </Button>
                </div>
              </InlineStack>
              <IndexTable
                resourceName={{ singular: t("lines.singular"), plural: t("lines.plural") }}
                itemCount={lines.length}
                selectable={false}
                emptyState={
                  <div style={{ padding: 16 }}>
                    <Text as="p" tone="subdued">
                      {t("lines.empty")}
                    </Text>
                  </div>
                }
                headings={[
                  { title: t("lines.affiliate") },
                  { title: t("lines.explanation") },
                  { title: t("lines.amount"), alignment: "end" },
                  { title: t("Global:fields.status") },
                  { title: "" },
                ]}
              >
                {lines.map((line, index) => (
                  <IndexTable.Row id={line.id} key={line.id} position={index}>
                    <IndexTable.Cell>
                      {`${line.affiliate.firstName} ${line.affiliate.lastName}`.trim() || line.affiliate.email}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <div style={{ whiteSpace: "normal", maxWidth: 420 }}>
                        {writeExplanation(
                          line.explanation,
                          explanationWriter((key, values) => t(key, values) as string, format.tag, line.currency),
                        )}
                      </div>
                    </IndexTable.Cell>
                    <NumericCell>{format.money(line.amount, line.currency)}</NumericCell>
                    <IndexTable.Cell>{t(`Global:status.${line.status}`)}</IndexTable.Cell>
                    <IndexTable.Cell>
                      {line.status === "pending" ? (
                        <InlineStack gap="100">
                          <Button
                            size="slim"
                            disabled={busy}
                            onClick={() => send({ intent: "approve", ids: [line.id] })}
                          >
                            {t("lines.approve")}
                          </Button>
                          <Button
                            size="slim"
                            tone="critical"
                            disabled={busy}
                            onClick={() => send({ intent: "deny", ids: [line.id] })}
                          >
                            {t("lines.deny")}
                          </Button>
                        </InlineStack>
                      ) : null}
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            </BlockStack>
          </Card>
        ) : null}
      </BlockStack>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
