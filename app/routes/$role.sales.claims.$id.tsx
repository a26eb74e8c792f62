import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, Layout, Link, Modal, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppToast } from "~/components/AppToast";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { SaleStatusBadge, SourceBadge } from "~/components/sales/SaleBadges";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { useFormat } from "~/i18n/format";
import type { ErrorBody } from "~/lib/errors";
import { attributionFallbackText, attributionReasonText } from "~/models/attribution/attribution-reason";
import { claimDecisionSchema } from "~/models/claims/claim-input";
import { getClaim } from "~/models/claims/claim-admin.server";
import { decideClaim } from "~/models/claims/decide-claim.server";
import { useShell } from "./$role";

// /{role}/sales/claims/{id}: one affiliate's claim of an order, the order it
// found with that order's own attribution trail and who it is credited to
// now, and approve (the order is credited to the claimant through the normal
// commission path) or decline with a note the affiliate reads.
export const handle: RouteHandle = { i18n: ["Sales"], title: "Sales:claims.detailTitle" };

const params = idParams("claim");

export const loader = /* @__PURE__ */ merchantRoute({ area: "sales", params }, async ({ db, params }) => ({
  claim: await getClaim(db, params.id),
}));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "sales", params, body: claimDecisionSchema },
  async ({ db, params, body, user }) => ({
    decided: (await decideClaim(db, params.id, body, user.name || user.email)).status,
  }),
);

const TONE = { open: "attention", approved: "success", declined: "critical" } as const;

export default function ClaimScreen() {
  const { claim } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const { t } = useTranslation(["Sales", "Global"]);
  const format = useFormat();
  const fetcher = useFetcher<{ decided?: "approved" | "declined" } & Partial<ErrorBody>>();
  const revalidator = useRevalidator();
  const [declining, setDeclining] = useState(false);
  const [note, setNote] = useState("");
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.decided) setToast(t(`claims.decided.${fetcher.data.decided}`));
  }, [fetcher.state, fetcher.data, t]);
  const tr = (key: string, values?: Record<string, unknown>) => t(key, values) as string;
  const when = (iso: string) => format.dateTime(iso, shop.timezone);
  const busy = fetcher.state !== "idle";
  const error = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  const sale = claim.sale;
  const open = claim.status === "open";
  const submit = (body: Record<string, string>) =>
    fetcher.submit(body, { method: "post", encType: "application/json" });
  const claimed =
    claim.orderNumber ??
    [claim.orderDay, claim.amount !== null && claim.currency ? format.money(claim.amount, claim.currency) : ""]
      .filter(Boolean)
      .join(", ");

  return (
    <Page
      title={t("claims.detailTitle")}
      backAction={{ content: t("claims.title"), url: `/${role}/sales/claims` }}
      titleMetadata={
        <Badge tone={TONE[claim.status as keyof typeof TONE]}>
          {t(`claims.statuses.${claim.status as keyof typeof TONE}`)}
        </Badge>
      }
      subtitle={t("claims.filedOn", { date: when(claim.createdAt) })}
      primaryAction={
        open
          ? {
              content: t("claims.approve"),
              disabled: !claim.canApprove || busy,
              loading: busy && fetcher.json !== undefined && !declining,
              onAction: () => submit({ intent: "approve" }),
            }
          : undefined
      }
      secondaryActions={
        open
          ? [{ content: t("claims.decline"), destructive: true, onAction: () => setDeclining(true), disabled: busy }]
          : []
      }
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {error ? (
              <Banner tone="critical" title={t("notDone")}>
                <p id="claim-error">{error.message}</p>
              </Banner>
            ) : null}
            {open && !claim.canApprove ? (
              <Banner tone="warning">
                <p id="claim-blocked">
                  {!sale
                    ? t("claims.blocked.noOrder")
                    : sale.attribution.affiliate
                      ? t("claims.blocked.credited", {
                          who: `${sale.attribution.affiliate.name} (${sale.attribution.affiliate.code})`,
                        })
                      : claim.affiliate.status !== "approved"
                        ? t("claims.blocked.affiliate")
                        : t("claims.blocked.order")}
                </p>
              </Banner>
            ) : null}
            {!open ? (
              <Banner tone={claim.status === "approved" ? "success" : "info"}>
                <p id="claim-decision">
                  {t(`claims.decidedBy.${claim.status as "approved"}`, {
                    who: claim.decidedBy ?? "",
                    date: claim.decidedAt ? when(claim.decidedAt) : "",
                  })}
                </p>
                {claim.declineNote ? <p>{claim.declineNote}</p> : null}
              </Banner>
            ) : null}
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("claims.claim")}
                </Text>
                <Text as="p">
                  {t("claims.by")}{" "}
                  <Link url={`/${role}/affiliates/${claim.affiliate.id}`}>
                    {claim.affiliate.name} ({claim.affiliate.code})
                  </Link>
                </Text>
                <Text as="p">{t("claims.named", { order: claimed })}</Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("claims.found")}
                </Text>
                {sale ? (
                  <>
                    <Text as="p">
                      <Link url={`/${role}/sales/${sale.id}`}>{sale.name}</Link> · {when(sale.placedAt)} ·{" "}
                      {format.money(sale.total, sale.currency)} <SaleStatusBadge status={sale.shownStatus} />{" "}
                      {sale.attribution.affiliate ? <SourceBadge source={sale.attribution.source} /> : null}
                    </Text>
                    <Text as="p" id="claim-order-reason">
                      {attributionReasonText(tr, sale.attribution, format.number) ||
                        attributionFallbackText(tr, sale.attribution.source, sale.attribution.affiliate?.name ?? null)}
                    </Text>
                    <Text as="p" id="claim-credited-to">
                      {sale.attribution.affiliate
                        ? t("claims.creditedTo", {
                            who: `${sale.attribution.affiliate.name} (${sale.attribution.affiliate.code})`,
                          })
                        : t("claims.creditedToNobody")}
                    </Text>
                  </>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("claims.noOrder")}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <Modal
        open={declining}
        onClose={() => setDeclining(false)}
        title={t("claims.declineTitle")}
        primaryAction={{
          content: t("claims.decline"),
          destructive: true,
          onAction: () => {
            setDeclining(false);
            submit({ intent: "decline", note });
          },
        }}
        secondaryActions={[{ content: t("denyConfirm.cancel"), onAction: () => setDeclining(false) }]}
      >
        <Modal.Section>
          <TextField
            label={t("claims.declineNote")}
            value={note}
            onChange={setNote}
            multiline={3}
            maxLength={500}
            autoComplete="off"
          />
        </Modal.Section>
      </Modal>
      {toast ? (
        <AppToast
          content={toast}
          onDismiss={() => {
            setToast(null);
            revalidator.revalidate();
          }}
        />
      ) : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
