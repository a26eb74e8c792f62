import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, DataTable, InlineStack, Modal, Page, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AppToast } from "~/components/AppToast";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { recordId } from "~/door/params";
import { useFormat } from "~/i18n/format";
import type { ErrorBody } from "~/lib/errors";
import { answerLeakFlag } from "~/models/leaks/decide-leak.server";
import { listLeakFlags, type LeakFlagView } from "~/models/leaks/leak-list.server";
import { useShell } from "./$role";

// /{role}/sales/leaks (Sales › Leaked codes): the leak watch's flags (ADR 051): an
// affiliate's code used in orders with no other sign of the affiliate. Each
// open flag holds its orders' commissions until the merchant rotates the
// code (a new one in Shopify, the old one deactivated) or releases the hold.
export const handle: RouteHandle = { i18n: ["Sales", "Global"], title: "Sales:leaks.title" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "sales" }, async ({ db }) => ({
  flags: await listLeakFlags(db),
}));

const answerSchema = z.object({ intent: z.enum(["rotate", "release"]), flagId: recordId("leak flag") });

export const action = /* @__PURE__ */ merchantRoute({ area: "sales", body: answerSchema }, async ({ db, body }) => ({
  answered: await answerLeakFlag(db, body.flagId, body.intent),
}));

type Flag = Omit<LeakFlagView, "createdAt" | "decidedAt" | "orders"> & {
  createdAt: string;
  orders: (Omit<LeakFlagView["orders"][number], "placedAt"> & { placedAt: string })[];
};
type Answer = { answered?: { status: string; newCode: string | null } } & Partial<ErrorBody>;

const STATUS_TONE = { open: "critical", rotated: "success", released: "info" } as const;

export default function LeakedCodes() {
  const { flags } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Sales", "Global"]);
  const { role } = useParams();
  return (
    <Page title={t("leaks.title")} backAction={{ content: t("title"), url: `/${role}/sales` }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("leaks.intro")}
        </Text>
        {flags.length === 0 ? (
          <Card>
            <Text as="p">{t("leaks.empty")}</Text>
          </Card>
        ) : (
          flags.map((flag) => <FlagCard key={flag.id} flag={flag as unknown as Flag} />)
        )}
      </BlockStack>
    </Page>
  );
}

function FlagCard({ flag }: { flag: Flag }) {
  const { t } = useTranslation(["Sales", "Global"]);
  const { shop } = useShell();
  const { role } = useParams();
  const format = useFormat();
  const fetcher = useFetcher<Answer>();
  const [confirm, setConfirm] = useState<"rotate" | "release" | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => {
    const answered = fetcher.state === "idle" ? fetcher.data?.answered : undefined;
    if (answered) setToast(t(`leaks.done.${answered.status === "rotated" ? "rotated" : "released"}`));
  }, [fetcher.state, fetcher.data, t]);
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  const name = `${flag.affiliate.firstName} ${flag.affiliate.lastName}`.trim() || flag.affiliate.email;
  const values: Record<string, string | number> = { ...flag.reasonValues, code: flag.code };
  const send = (intent: "rotate" | "release") => {
    setConfirm(null);
    fetcher.submit({ intent, flagId: flag.id }, { method: "post", encType: "application/json" });
  };
  const busy = fetcher.state !== "idle";
  return (
    <Card>
      <div data-testid={`leak-flag-${flag.code}`}>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {flag.code}
              </Text>
              <Badge tone={STATUS_TONE[flag.status as keyof typeof STATUS_TONE]}>
                {t(`leaks.status.${flag.status as "open" | "rotated" | "released"}`)}
              </Badge>
            </InlineStack>
            <Text as="span" tone="subdued">
              {format.dateTime(flag.createdAt, shop.timezone)}
            </Text>
          </InlineStack>
          <Text as="p">
            {t("leaks.affiliate")}:{" "}
            <a href={`/${role}/affiliates/${flag.affiliate.id}`} data-testid="leak-affiliate">
              {name}
            </a>
          </Text>
          <div data-testid="leak-reason">
            <Text as="p" fontWeight="semibold">
              {t(`leaks.reasons.${flag.reasonKey as "volume" | "site"}`, { ...values, count: Number(values.count) })}
            </Text>
          </div>
          <Text as="p" tone="subdued">
            {t("leaks.missing")}: {flag.missing.map((s) => t(`leaks.signals.${s}`)).join(" · ")}
          </Text>
          {flag.status === "rotated" && flag.newCode ? (
            <Banner tone={flag.rotation === "failed" ? "warning" : "success"}>
              <p data-testid="leak-rotation">
                {t(`leaks.rotation.${(flag.rotation ?? "pending") as "pending" | "done" | "failed"}`, {
                  code: flag.code,
                  newCode: flag.newCode,
                  error: flag.rotationError ?? "",
                })}
              </p>
            </Banner>
          ) : null}
          {error ? (
            <Banner tone="critical">
              <p>{error.code === "conflict" ? t("leaks.conflict") : error.message}</p>
            </Banner>
          ) : null}
          <DataTable
            columnContentTypes={["text", "text", "numeric", "text", "text"]}
            headings={[t("leaks.order"), t("leaks.placed"), t("leaks.subtotal"), t("leaks.source"), t("leaks.held")]}
            rows={flag.orders.map((o) => [
              <a key="o" href={`/${role}/sales/${o.id}`}>
                {o.name}
              </a>,
              format.dateTime(o.placedAt, shop.timezone),
              format.money(o.subtotal, o.currency),
              o.referringHost ?? t("leaks.direct"),
              o.leakHoldId ? t("leaks.yes") : t("leaks.no"),
            ])}
          />
          {flag.status === "open" ? (
            <InlineStack gap="200" align="end">
              <Button onClick={() => setConfirm("release")} disabled={busy}>
                {t("leaks.release")}
              </Button>
              <Button variant="primary" tone="critical" onClick={() => setConfirm("rotate")} loading={busy}>
                {t("leaks.rotate")}
              </Button>
            </InlineStack>
          ) : null}
        </BlockStack>
      </div>
      <Modal
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t(confirm === "rotate" ? "leaks.confirmRotate.title" : "leaks.confirmRelease.title", {
          code: flag.code,
        })}
        primaryAction={{
          content: t(confirm === "rotate" ? "leaks.rotate" : "leaks.release"),
          destructive: confirm === "rotate",
          onAction: () => confirm && send(confirm),
        }}
        secondaryActions={[{ content: t("leaks.cancel"), onAction: () => setConfirm(null) }]}
      >
        <Modal.Section>
          <Text as="p">
            {t(confirm === "rotate" ? "leaks.confirmRotate.body" : "leaks.confirmRelease.body", {
              code: flag.code,
              name,
              count: flag.orders.length,
            })}
          </Text>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
