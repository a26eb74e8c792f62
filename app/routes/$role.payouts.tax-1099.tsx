import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, DataTable, InlineStack, Page, Select, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { maskTin } from "~/models/tax-forms/tax-form-schemas";
import { necYear } from "~/models/tax-forms/nec-1099.server";

// /{role}/payouts/tax-1099?year=2026: the year's US payees (a W-9 on file),
// what they were paid outside PayPal, and whether a 1099-NEC is due; the
// CSV download for an e-filing service. Not legal advice, and it says so.
export const handle: RouteHandle = { i18n: ["Tax", "Payouts"], title: "Tax:nec.title" };

const query = z.object({ year: z.coerce.number().int().min(2000).max(2100).optional().catch(undefined) });

export const loader = /* @__PURE__ */ merchantRoute({ area: "payouts", query }, async ({ db, user, query }) => {
  const year = query.year ?? new Date().getUTCFullYear();
  const report = await necYear(db, year);
  return {
    year,
    threshold: report.threshold,
    latestKnownYear: report.latestKnownYear,
    isAdmin: user.role === "admin",
    // Masked: the page never carries a TIN.
    rows: report.rows.map((r) => ({
      affiliateId: r.payee.affiliateId,
      name: r.payee.fields.name ?? "",
      businessName: r.payee.fields.businessName ?? "",
      tin: `${r.payee.tinType.toUpperCase()} ${maskTin(r.payee.tinLast4)}`,
      box1: r.box1,
      paypal: r.paypal,
      otherCurrencies: r.otherCurrencies,
      reportable: r.reportable,
    })),
  };
});

export default function Tax1099() {
  const { year, threshold, latestKnownYear, rows, isAdmin } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Tax", "Global"]);
  const format = useFormat();
  const { role } = useParams();
  const navigate = useNavigate();
  const thisYear = new Date().getUTCFullYear();
  const years = Array.from({ length: 6 }, (_, i) => String(thisYear + 1 - i));
  const usd = (cents: number) => format.money(cents, "USD");
  const reportable = rows.filter((r) => r.reportable);
  return (
    <Page title={t("nec.title")} backAction={{ url: `/${role}/payouts` }}>
      <BlockStack gap="400">
        <Banner tone="warning">
          <p id="not-legal-advice">{t("nec.notLegalAdvice")}</p>
        </Banner>
        <Card>
          <BlockStack gap="300">
            <InlineStack gap="400" blockAlign="end">
              <Select
                label={t("nec.year")}
                options={years}
                value={String(year)}
                onChange={(v) => navigate(`/${role}/payouts/tax-1099?year=${v}`)}
              />
              {threshold !== null && isAdmin ? (
                <Button url={`/${role}/payouts/tax-1099.csv?year=${year}`} download variant="primary" id="nec-csv">
                  {t("nec.download")}
                </Button>
              ) : null}
            </InlineStack>
            {threshold === null ? (
              <Banner tone="critical">
                <p id="nec-unknown-year">{t("nec.unknownYear", { year, latest: latestKnownYear })}</p>
              </Banner>
            ) : (
              <>
                <Text as="p" id="nec-threshold">
                  {t("nec.threshold", { year, amount: usd(threshold) })}
                </Text>
                <Text as="p" id="nec-summary">
                  {t("nec.summary", {
                    count: reportable.length,
                    total: usd(reportable.reduce((s, r) => s + r.box1, 0)),
                  })}
                </Text>
                <Text as="p" tone="subdued">
                  {t("nec.paypalNote")}
                </Text>
                {!isAdmin ? (
                  <Text as="p" tone="subdued">
                    {t("nec.adminOnly")}
                  </Text>
                ) : null}
              </>
            )}
          </BlockStack>
        </Card>
        {threshold !== null ? (
          <Card padding="0">
            {rows.length === 0 ? (
              <div style={{ padding: 16 }}>
                <Text as="p">{t("nec.empty")}</Text>
              </div>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "numeric", "numeric", "text"]}
                headings={[
                  t("nec.columns.payee"),
                  t("nec.columns.tin"),
                  t("nec.columns.box1"),
                  t("nec.columns.paypal"),
                  t("nec.columns.status"),
                ]}
                rows={rows.map((r) => [
                  r.businessName ? `${r.name} (${r.businessName})` : r.name,
                  r.tin,
                  usd(r.box1),
                  usd(r.paypal),
                  (r.reportable ? t("nec.reportable") : t("nec.notReportable")) +
                    (r.otherCurrencies ? ` · ${t("nec.otherCurrencies", { count: r.otherCurrencies })}` : ""),
                ])}
              />
            )}
          </Card>
        ) : null}
      </BlockStack>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
