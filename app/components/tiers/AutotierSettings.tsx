import { useFetcher, useParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  IndexTable,
  type IndexTableProps,
  List,
  Modal,
  InlineGrid,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/format";
import { useTranslatedError } from "../../i18n/messages";
import type { ErrorBody } from "../../lib/errors";

const TIER_ROW_COLUMNS =
  "minmax(4rem, max-content) minmax(0, 2fr) minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr) max-content max-content max-content";
import { TIER_METRICS, tierReasonText, type TierReasonValues } from "../../models/tiers/evaluate-tiers";
import { SettingsPage } from "../settings/SettingsPage";

// Settings › Autotier: the ordered ladder of campaigns, the switches, and the
// latest moves with their reasons.

type Person = { firstName: string; lastName: string; email: string };

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
    reasonKey: string;
    reasonValues: string;
    runId: string | null;
    undo: string | null;
    createdAt: string;
    affiliate: Person;
  }[];
  runs: {
    id: string;
    trigger: string;
    moved: number;
    restored: number;
    createdAt: string;
    undoneAt: string | null;
  }[];
  nextRun: string | null;
  preview: {
    count: number;
    moves: {
      affiliateId: string;
      affiliate: Person | null;
      fromCampaignId: string;
      toCampaignId: string;
      direction: string;
      reasonKey: string;
      reasonValues: TierReasonValues;
    }[];
  };
}

type ActionData = Partial<ErrorBody> & {
  saved?: boolean;
  applied?: number;
  undone?: { restored: number; skipped: { affiliateId: string; name: string; reason: string }[] };
};

type MoveShown = {
  affiliateId: string;
  affiliate: Person | null;
  fromCampaignId: string;
  toCampaignId: string;
  reason?: string;
  reasonKey: string;
  reasonValues: string | TierReasonValues;
};

const personName = (p: Person | null) => (p ? `${p.firstName} ${p.lastName}`.trim() || p.email : "—");

export function AutotierSettings({ data, timeZone }: { data: AutotierData; timeZone: string }) {
  const { t } = useTranslation(["Settings", "Global"]);
  const { role } = useParams();
  const format = useFormat();
  const fetcher = useFetcher<ActionData>();
  const runFetcher = useFetcher<ActionData>();
  const saved = useMemo(() => ({ ...data.settings, tiers: data.tiers }), [data]);
  const [values, setValues] = useState(saved);
  // Save has the settings pages' one "Save successful"; apply and undo say what they did.
  const [savedToast, setSavedToast] = useState(false);
  const [toast, setToast] = useState<string | null>(null);
  const [confirmApply, setConfirmApply] = useState(false);
  const [undoRun, setUndoRun] = useState<string | null>(null);
  useEffect(() => setValues(saved), [saved]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.saved) setSavedToast(true);
  }, [fetcher.state, fetcher.data]);
  useEffect(() => {
    if (runFetcher.state !== "idle" || !runFetcher.data) return;
    if (runFetcher.data.applied !== undefined) {
      setConfirmApply(false);
      setToast(t("autotier.applied", { count: runFetcher.data.applied }));
    }
    if (runFetcher.data.undone) {
      setUndoRun(null);
      setToast(t("autotier.undoDone", { count: runFetcher.data.undone.restored }));
    }
  }, [runFetcher.state, runFetcher.data, t]);
  const runError = useTranslatedError(runFetcher.state === "idle" ? runFetcher.data?.error : undefined);
  const skipped = runFetcher.state === "idle" ? (runFetcher.data?.undone?.skipped ?? []) : [];
  const reason = (m: { reason?: string; reasonKey: string; reasonValues: string | TierReasonValues }) =>
    tierReasonText(t as never, m, format.money);
  // Who moves, from where to where, and why: the same cells in the preview and in the moves made.
  const moveCells = (m: MoveShown) => (
    <>
      <IndexTable.Cell>
        <a href={`/${role}/affiliates/${m.affiliateId}`}>{personName(m.affiliate)}</a>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {`${campaignName.get(m.fromCampaignId) ?? "—"} → ${campaignName.get(m.toCampaignId) ?? "—"}`}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <div style={{ whiteSpace: "normal", maxWidth: 520 }}>{reason(m)}</div>
      </IndexTable.Cell>
    </>
  );
  const submitRun = (body: Record<string, unknown>) =>
    runFetcher.submit(body as never, { method: "post", encType: "application/json" });
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
        toast: savedToast,
        dismissToast: () => setSavedToast(false),
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
      {runError ? (
        <Banner tone="critical">
          <p>{runError.message}</p>
        </Banner>
      ) : null}
      {skipped.length ? (
        <Banner tone="warning" title={t("autotier.undoSkippedTitle", { count: skipped.length })}>
          <List>
            {skipped.map((s) => (
              <List.Item key={s.affiliateId}>{`${s.name}: ${t(`autotier.undoSkipReasons.${s.reason}`)}`}</List.Item>
            ))}
          </List>
        </Banner>
      ) : null}
      <Card padding="0">
        <Box padding="400">
          <BlockStack gap="200">
            <InlineStack align="space-between" blockAlign="center" gap="200">
              <Text as="h2" variant="headingMd">
                {t("autotier.preview")}
              </Text>
              <Button
                variant="primary"
                disabled={data.preview.count === 0 || dirty}
                onClick={() => setConfirmApply(true)}
              >
                {t("autotier.applyNow")}
              </Button>
            </InlineStack>
            <Text as="p" tone="subdued">
              {t("autotier.previewHelp")}
            </Text>
            <Text as="p" fontWeight="semibold" id="autotier-next-run">
              {data.nextRun
                ? t("autotier.nextRun", { when: format.dateTime(data.nextRun, timeZone) })
                : t("autotier.noSchedule")}
            </Text>
            {data.preview.count ? (
              <Text as="p" id="autotier-preview-count">
                {t("autotier.previewCount", { count: data.preview.count })}
                {data.preview.count > data.preview.moves.length
                  ? ` ${t("autotier.previewMore", { shown: data.preview.moves.length })}`
                  : ""}
              </Text>
            ) : null}
          </BlockStack>
        </Box>
        <PlainTable
          resourceName={{ singular: t("autotier.moveSingular"), plural: t("autotier.movePlural") }}
          itemCount={data.preview.moves.length}
          empty={t("autotier.previewEmpty")}
          headings={[
            { title: t("autotier.affiliate") },
            { title: t("autotier.change") },
            { title: t("autotier.reason") },
          ]}
        >
          {data.preview.moves.map((m, i) => (
            <IndexTable.Row id={`preview-${m.affiliateId}`} key={m.affiliateId} position={i}>
              {moveCells(m)}
            </IndexTable.Row>
          ))}
        </PlainTable>
      </Card>
      <TableCard
        title={t("autotier.runs")}
        resourceName={{ singular: t("autotier.runSingular"), plural: t("autotier.runPlural") }}
        itemCount={data.runs.length}
        empty={t("autotier.noRuns")}
        headings={[
          { title: t("autotier.when") },
          { title: t("autotier.trigger") },
          { title: t("autotier.moved"), alignment: "end" },
          { title: t("autotier.status") },
          { title: "" },
        ]}
      >
        {data.runs.map((r, i) => (
          <IndexTable.Row id={r.id} key={r.id} position={i}>
            <IndexTable.Cell>{format.dateTime(r.createdAt, timeZone)}</IndexTable.Cell>
            <IndexTable.Cell>{t(`autotier.triggers.${r.trigger}`)}</IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" alignment="end" numeric>
                {format.number(r.moved)}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              {r.undoneAt ? t("autotier.runUndone", { restored: r.restored, moved: r.moved }) : t("autotier.runDone")}
            </IndexTable.Cell>
            <IndexTable.Cell>
              {!r.undoneAt && r.moved > 0 ? (
                <Button size="slim" onClick={() => setUndoRun(r.id)}>
                  {t("autotier.undo")}
                </Button>
              ) : null}
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </TableCard>
      <TableCard
        title={t("autotier.moves")}
        resourceName={{ singular: t("autotier.moveSingular"), plural: t("autotier.movePlural") }}
        itemCount={data.moves.length}
        empty={t("autotier.noMoves")}
        headings={[
          { title: t("autotier.when") },
          { title: t("autotier.affiliate") },
          { title: t("autotier.change") },
          { title: t("autotier.reason") },
          { title: t("autotier.status") },
        ]}
      >
        {data.moves.map((m, i) => (
          <IndexTable.Row id={m.id} key={m.id} position={i}>
            <IndexTable.Cell>{format.date(m.createdAt, timeZone)}</IndexTable.Cell>
            {moveCells(m)}
            <IndexTable.Cell>{m.undo ? t(`autotier.moveUndo.${m.undo}`) : ""}</IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </TableCard>
      <Modal
        open={confirmApply}
        onClose={() => setConfirmApply(false)}
        title={t("autotier.applyTitle")}
        primaryAction={{
          content: t("autotier.applyConfirm", { count: data.preview.count }),
          loading: runFetcher.state !== "idle",
          onAction: () => submitRun({ intent: "apply_now", expected: data.preview.count }),
        }}
        secondaryActions={[{ content: t("autotier.cancel"), onAction: () => setConfirmApply(false) }]}
      >
        <Modal.Section>
          <Text as="p">{t("autotier.applyBody", { count: data.preview.count })}</Text>
        </Modal.Section>
      </Modal>
      <Modal
        open={undoRun !== null}
        onClose={() => setUndoRun(null)}
        title={t("autotier.undoTitle")}
        primaryAction={{
          content: t("autotier.undoConfirm"),
          destructive: true,
          loading: runFetcher.state !== "idle",
          onAction: () => submitRun({ intent: "undo_run", runId: undoRun }),
        }}
        secondaryActions={[{ content: t("autotier.cancel"), onAction: () => setUndoRun(null) }]}
      >
        <Modal.Section>
          <Text as="p">{t("autotier.undoBody")}</Text>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </SettingsPage>
  );
}

type TableProps = {
  resourceName: { singular: string; plural: string };
  itemCount: number;
  empty: string;
  headings: IndexTableProps["headings"];
  children: ReactNode;
};

/** A read-only table of the page, with a subdued line when it has no rows. */
function PlainTable({ empty, ...table }: TableProps) {
  return (
    <IndexTable
      {...table}
      selectable={false}
      emptyState={
        <Box padding="400">
          <Text as="p" tone="subdued">
            {empty}
          </Text>
        </Box>
      }
    />
  );
}

/** A card holding a titled read-only table (runs, moves). */
function TableCard({ title, ...table }: TableProps & { title: string }) {
  return (
    <Card padding="0">
      <Box padding="400">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
      </Box>
      <PlainTable {...table} />
    </Card>
  );
}
