import { json } from "@remix-run/node";
import { useLoaderData, useLocation, useNavigation, useParams } from "@remix-run/react";
import { Card, Page, SkeletonBodyText, SkeletonPage } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AddAffiliateModal } from "~/components/affiliates/AddAffiliateModal";
import { AffiliatesTable } from "~/components/affiliates/AffiliatesTable";
import { downloadFile } from "~/components/affiliates/download-file";
import { ImportAffiliatesModal } from "~/components/affiliates/ImportAffiliatesModal";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { displayZone } from "~/lib/shop-day";
import { addAffiliate, listAdminAffiliates, setAffiliatesStatus } from "~/models/affiliates/admin-affiliates.server";
import { affiliateFormSchema, affiliateListQuerySchema, bulkStatusSchema } from "~/models/affiliates/admin-schemas";
import { MAX_IMPORT_BYTES } from "~/models/affiliates/csv-columns";
import { IMPORT_FORMATS, type ImportFormat } from "~/models/affiliates/app-import-formats";
import { startAffiliateImport } from "~/models/affiliates/csv-import.server";
import { planUsage, readOnlyRows, requireEditable, requireRoomFor } from "~/models/plans/plan-usage.server";
import { listShowsPlanLimit, PlanLimitBanner } from "~/components/PlanLimitBanner";
import type { RouteHandle } from "~/i18n/route-handle";
import { useShell } from "./$role";

export const handle: RouteHandle = {
  i18n: ["Affiliates", "Global"],
  // The plan's banner and read-only badges show only over the limit.
  i18nShown: ({ data }) => (listShowsPlanLimit(data) ? ["Plans"] : []),
  title: "Affiliates:title",
};

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "affiliates", query: affiliateListQuerySchema },
  async ({ db, shop, query }) => {
    const list = await listAdminAffiliates(db, query);
    const onScreen = list.rows.map((row) => row.id);
    return {
      ...list,
      query,
      planLimit: await planUsage(db, shop.pricingPlan, "affiliates"),
      readOnly: await readOnlyRows(db, shop.pricingPlan, "affiliates", onScreen),
    };
  },
);

const actionSchema = z.discriminatedUnion("intent", [
  bulkStatusSchema.extend({ intent: z.literal("status") }),
  affiliateFormSchema.extend({ intent: z.literal("create") }),
  z.object({
    intent: z.literal("import"),
    // Whose export the file is (this app's own columns unless another app's is chosen).
    format: z.enum(IMPORT_FORMATS).default("csv"),
    file: z
      .instanceof(File, { message: "Choose a CSV file to import." })
      .refine((file) => file.size <= MAX_IMPORT_BYTES, "The file is larger than 2 MB."),
  }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "affiliates", body: actionSchema },
  async ({ db, shop, body }) => {
    switch (body.intent) {
      case "status":
        await requireEditable(db, shop.pricingPlan, "affiliates", body.ids);
        return { intent: body.intent, action: body.action, ...(await setAffiliatesStatus(db, body.ids, body.action)) };
      case "create": {
        const { intent, ...form } = body;
        await requireRoomFor(db, shop.pricingPlan, "affiliates");
        return { intent, id: (await addAffiliate(db, form)).id };
      }
      case "import": {
        const usage = await planUsage(db, shop.pricingPlan, "affiliates");
        const room = usage.max === null ? null : Math.max(0, usage.max - usage.count);
        const result = await startAffiliateImport(db, await body.file.text(), { room, format: body.format });
        return json({ intent: body.intent, ...result }, { status: result.ok ? 202 : 422 });
      }
    }
  },
);

export default function AffiliatesIndex() {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const data = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const location = useLocation();
  const navigation = useNavigation();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState<false | ImportFormat>(false);
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);

  // Opening an affiliate: their page's skeleton while its data loads.
  if (navigation.state === "loading" && navigation.location.pathname.startsWith(`/${role}/affiliates/`)) {
    return (
      <SkeletonPage title={t("detailTitle")} backAction primaryAction>
        <Card>
          <SkeletonBodyText lines={6} />
        </Card>
      </SkeletonPage>
    );
  }

  const exportUrl = `/${role}/affiliates/export${location.search}`;
  return (
    <Page
      title={t("title")}
      subtitle={t("Global:timeZoneNote", { zone: displayZone(shop.timezone) })}
      primaryAction={{ content: t("add.button"), onAction: () => setAdding(true) }}
      secondaryActions={[
        { content: t("import.button"), onAction: () => setImporting("csv") },
        { content: t("import.fromAnotherApp"), onAction: () => setImporting("uppromote") },
        {
          content: t("export.button"),
          loading: exporting,
          onAction: () => {
            setExporting(true);
            void downloadFile(exportUrl)
              .then(
                (ok) => setExportFailed(!ok),
                () => setExportFailed(true),
              )
              .finally(() => setExporting(false));
          },
        },
      ]}
    >
      <PlanLimitBanner
        limit="affiliates"
        usage={data.planLimit}
        readOnly={data.readOnly}
        plansUrl={role === "admin" ? "/admin/plans" : null}
      />
      {exportFailed ? <AppToast content={t("export.failed")} error onDismiss={() => setExportFailed(false)} /> : null}
      <AffiliatesTable
        data={data}
        timeZone={shop.timezone}
        onAdd={() => setAdding(true)}
        onImport={() => setImporting("csv")}
      />
      <AddAffiliateModal open={adding} onClose={() => setAdding(false)} campaigns={data.campaigns} />
      <ImportAffiliatesModal
        open={importing !== false}
        initialFormat={importing || "csv"}
        onClose={() => setImporting(false)}
      />
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
