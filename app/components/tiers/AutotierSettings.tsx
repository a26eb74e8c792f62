import { useFetcher, useParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  IndexTable,
  InlineGrid,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/format";
import { useTranslatedError } from "../../i18n/messages";
import type { ErrorBody } from "../../lib/errors";

const TIER_ROW_COLUMNS =
  "minmax(4rem, max-content) minmax(0, 2fr) minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr) max-content max-content max-content";
import { TIER_METRICS } from "../../models/tiers/evaluate-tiers";
import { SettingsPage } from "../settings/SettingsPage";

// Settings › Autotier: the ordered ladder of campaigns, the switches, and the
// latest moves with their reasons.

export interface AutotierData {
  settings: { enabled: boolean; allowDemotion: boolean };
  tiers: { campaignId: string; metric: string; threshold: string; windowDays: string }[];
  campaigns: { id: string; name: string }[];
  moves: {
    id: string;
    affiliateId: string;
    fromCampaignId: string;
    toCampaignId: string;
    direction: string;
    reason: string;
    createdAt: string;
    affiliate: { firstName: string; lastName: string; email: string };
  }[];
}

export function AutotierSettings({ data, timeZone }: { data: AutotierData; timeZone: string }) {
  const { t } = useTranslation(["Settings", "Global"]);
  const { role } = useParams();
  const format = useFormat();
  const fetcher = useFetcher<{ saved?: boolean } & Partial<ErrorBody>>();
  const saved = useMemo(() => ({ ...data.settings, tiers: data.tiers }), [data]);
  const [values, setValues] = useState(saved);
  const [toast, setToast] = useState(false);
  useEffect(() => setValues(saved), [saved]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.saved) setToast(true);
  }, [fetcher.state, fetcher.data]);
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const serverError = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  const fields = serverError?.fields ?? {};
  const campaignName = new Map(data.campaigns.map((c) => [c.id, c.name]));
  const setTier = (i: number, key: string, value: string) =>
    setValues((v) => ({ ...v, tiers: v.tiers.map((tier, j) => (j === i ? { ...tier, [key]: value } : tier)) }));
  const move = (i: number, by: number) =>
    setValues((v) => {
      const tiers = [...v.tiers];
      const [row] = tiers.splice(i, 1);
      tiers.splice(i + by, 0, row!);
      return { ...v, tiers };
    });
  const save = () =>
    fetcher.submit({ intent: "save_autotier", ...values } as never, { method: "post", encType: "application/json" });

  return (
    <SettingsPage
      title={t("tabs.autotier")}
      form={{
        dirty: dirty && fetcher.state === "idle",
        busy: fetcher.state !== "idle",
        save,
        toast,
        dismissToast: () => setToast(false),
      }}
    >
      {serverError ? (
        <Banner tone="critical">
          <p>{fields.tiers ?? serverError.message}</p>
        </Banner>
      ) : null}
      <Card>
        <BlockStack gap="300">
          <Text as="p" tone="subdued">
            {t("autotier.intro")}
          </Text>
          <Checkbox
            label={t("autotier.enabled")}
            checked={values.enabled}
            onChange={(enabled) => setValues((v) => ({ ...v, enabled }))}
          />
          <Checkbox
            label={t("autotier.allowDemotion")}
            helpText={t("autotier.allowDemotionHelp")}
            checked={values.allowDemotion}
            onChange={(allowDemotion) => setValues((v) => ({ ...v, allowDemotion }))}
          />
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("autotier.ladder")}
          </Text>
          <Text as="p" tone="subdued">
            {t("autotier.ladderHelp")}
          </Text>
          {values.tiers.map((tier, i) => (
            // One grid template for every row, so each field sits under the
            // same field of the row above whatever its content's width.
            <InlineGrid key={i} gap="200" alignItems="end" columns={TIER_ROW_COLUMNS}>
              <Box paddingBlockEnd="150">
                <Text as="span" fontWeight="semibold">
                  {t("autotier.tier", { n: i + 1 })}
                </Text>
              </Box>
              <Select
                label={t("autotier.campaign")}
                options={[{ value: "", label: "—" }, ...data.campaigns.map((c) => ({ value: c.id, label: c.name }))]}
                value={tier.campaignId}
                onChange={(v) => setTier(i, "campaignId", v)}
                error={fields[`tiers.${i}.campaignId`]}
              />
              <Select
                label={t("autotier.metric")}
                options={TIER_METRICS.map((m) => ({ value: m, label: t(`autotier.metrics.${m}`) }))}
                value={tier.metric}
                onChange={(v) => setTier(i, "metric", v)}
              />
              <TextField
                label={t("autotier.threshold")}
                value={tier.threshold}
                onChange={(v) => setTier(i, "threshold", v)}
                error={fields[`tiers.${i}.threshold`]}
                autoComplete="off"
                disabled={i === 0}
              />
              <TextField
                label={t("autotier.window")}
                value={tier.windowDays}
                onChange={(v) => setTier(i, "windowDays", v)}
                error={fields[`tiers.${i}.windowDays`]}
                autoComplete="off"
                disabled={i === 0}
              />
              <Button disabled={i === 0} onClick={() => move(i, -1)} accessibilityLabel={t("autotier.up")}>
                ↑
              </Button>
              <Button
                disabled={i === values.tiers.length - 1}
                onClick={() => move(i, 1)}
                accessibilityLabel={t("autotier.down")}
              >
                ↓
              </Button>
              <Button
                tone="critical"
                onClick={() => setValues((v) => ({ ...v, tiers: v.tiers.filter((_, j) => j !== i) }))}
              >
                {t("autotier.remove")}
              </Button>
            </InlineGrid>
          ))}
          <InlineStack>
            <Button
              disabled={values.tiers.length >= 10}
              onClick={() =>
                setValues((v) => ({
                  ...v,
                  tiers: [
                    ...v.tiers,
                    { campaignId: "", metric: "sales", threshold: v.tiers.length ? "10" : "0", windowDays: "0" },
                  ],
                }))
              }
            >
              {t("autotier.add")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Card>
      <Card padding="0">
        <div style={{ padding: 16 }}>
          <Text as="h2" variant="headingMd">
            {t("autotier.moves")}
          </Text>
        </div>
        <IndexTable
          resourceName={{ singular: t("autotier.moveSingular"), plural: t("autotier.movePlural") }}
          itemCount={data.moves.length}
          selectable={false}
          emptyState={
            <div style={{ padding: 16 }}>
              <Text as="p" tone="subdued">
                {t("autotier.noMoves")}
              </Text>
            </div>
          }
          headings={[
            { title: t("autotier.when") },
            { title: t("autotier.affiliate") },
            { title: t("autotier.change") },
            { title: t("autotier.reason") },
          ]}
        >
          {data.moves.map((m, i) => (
            <IndexTable.Row id={m.id} key={m.id} position={i}>
              <IndexTable.Cell>{format.date(m.createdAt, timeZone)}</IndexTable.Cell>
              <IndexTable.Cell>
                <a href={`/${role}/affiliates/${m.affiliateId}`}>
                  {`${m.affiliate.firstName} ${m.affiliate.lastName}`.trim() || m.affiliate.email}
                </a>
              </IndexTable.Cell>
              <IndexTable.Cell>
                {`${campaignName.get(m.fromCampaignId) ?? "—"} → ${campaignName.get(m.toCampaignId) ?? "—"}`}
              </IndexTable.Cell>
              <IndexTable.Cell>
                <div style={{ whiteSpace: "normal", maxWidth: 460 }}>{m.reason}</div>
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </Card>
    </SettingsPage>
  );
}
