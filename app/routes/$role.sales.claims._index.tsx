import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { Badge, Box, Card, DataTable, InlineStack, Link, Page, Tabs, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { CLAIM_STATUSES } from "~/models/claims/claim-input";
import { claimCounts, listClaims } from "~/models/claims/claim-admin.server";
import { useShell } from "./$role";

// /{role}/sales/claims: affiliates' claims of orders that were not credited
// to them, one tab per status (open first), newest first, paged on the
// server (keyset cursor). Each row opens the claim.
export const handle: RouteHandle = { i18n: ["Sales"], title: "Sales:claims.title" };

const query = z.object({
  status: z.enum(CLAIM_STATUSES).catch("open"),
  cursor: z.string().max(200).optional(),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "sales", query }, async ({ db, query }) => {
  const [page, counts] = await Promise.all([listClaims(db, query.status, query.cursor), claimCounts(db)]);
  return { status: query.status, claims: page.data, next: page.next_cursor, counts, first: !query.cursor };
});

const TONE = { open: "attention", approved: "success", declined: "critical" } as const;

export default function Claims() {
  const { status, claims, next, counts, first } = useLoaderData<typeof loader>();
  const { role } = useParams();
  const { shop } = useShell();
  const navigate = useNavigate();
  const { t } = useTranslation(["Sales", "Global"]);
  const format = useFormat();
  const tabs = CLAIM_STATUSES.map((s) => ({
    id: `claims-${s}`,
    content: `${t(`claims.statuses.${s}`)} (${format.number(counts[s])})`,
  }));
  return (
    <Page title={t("claims.title")} backAction={{ content: t("title"), url: `/${role}/sales` }}>
      <Card padding="0">
        <Tabs
          tabs={tabs}
          selected={CLAIM_STATUSES.indexOf(status)}
          onSelect={(i) => navigate(`/${role}/sales/claims?status=${CLAIM_STATUSES[i]}`)}
        />
        {claims.length ? (
          <div data-testid="claims-table">
            <DataTable
              columnContentTypes={["text", "text", "text", "text", "text"]}
              headings={[
                t("claims.columns.filed"),
                t("claims.columns.affiliate"),
                t("claims.columns.claimed"),
                t("claims.columns.order"),
                t("claims.columns.status"),
              ]}
              rows={claims.map((c) => [
                <Link key="d" url={`/${role}/sales/claims/${c.id}`} dataPrimaryLink>
                  {format.dateTime(c.createdAt, shop.timezone)}
                </Link>,
                `${c.affiliate.name} (${c.affiliate.code})`,
                c.orderNumber ??
                  [c.orderDay, c.amount !== null && c.currency ? format.money(c.amount, c.currency) : ""]
                    .filter(Boolean)
                    .join(", "),
                c.order
                  ? `${c.order.name} · ${c.order.credited ? t("claims.credited") : t("sources.none")}`
                  : t("claims.noOrder"),
                <Badge key="s" tone={TONE[c.status as keyof typeof TONE]}>
                  {t(`claims.statuses.${c.status as keyof typeof TONE}`)}
                </Badge>,
              ])}
            />
          </div>
        ) : (
          <Box padding="400">
            <Text as="p" tone="subdued">
              {t(`claims.empty.${status}`)}
            </Text>
          </Box>
        )}
      </Card>
      {next || !first ? (
        <div style={{ padding: 16 }}>
          <InlineStack gap="300">
            {!first ? <Link url={`/${role}/sales/claims?status=${status}`}>{t("claims.firstPage")}</Link> : null}
            {next ? (
              <Link url={`/${role}/sales/claims?status=${status}&cursor=${encodeURIComponent(next)}`}>
                {t("claims.nextPage")}
              </Link>
            ) : null}
          </InlineStack>
        </div>
      ) : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
