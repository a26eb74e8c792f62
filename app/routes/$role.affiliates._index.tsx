import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation, useNavigation, useParams } from "@remix-run/react";
import { Card, Page, SkeletonBodyText, SkeletonPage, Toast } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AddAffiliateModal } from "~/components/affiliates/AddAffiliateModal";
import { AffiliatesTable } from "~/components/affiliates/AffiliatesTable";
import { downloadFile } from "~/components/affiliates/download-file";
import { ImportAffiliatesModal } from "~/components/affiliates/ImportAffiliatesModal";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { AppError } from "~/lib/errors";
import { displayZone } from "~/lib/shop-day";
import { handleApi, loadOrThrow, parseFormData, parseQuery } from "~/lib/http.server";
import {
  addAffiliate,
  readAffiliateForm,
  listAdminAffiliates,
  setAffiliatesStatus,
} from "~/models/affiliates/admin-affiliates.server";
import { affiliateListQuerySchema, bulkStatusSchema } from "~/models/affiliates/admin-schemas";
import { MAX_IMPORT_BYTES } from "~/models/affiliates/csv-columns";
import { importAffiliatesCsv } from "~/models/affiliates/csv-import.server";
import { requireMerchant } from "~/models/auth/require-merchant.server";
import { useShell } from "./$role";

export const handle = { i18n: ["Affiliates", "Global"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "affiliates" });
  return loadOrThrow(async () => {
    const query = parseQuery(request, affiliateListQuerySchema);
    const list = await listAdminAffiliates(ctx.shop.id, query);
    return json({ ...list, query });
  });
}

async function readForm(request: Request): Promise<FormData> {
  // The CSV file is the largest thing sent here; refuse more before reading it.
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_IMPORT_BYTES + 64 * 1024) throw new AppError("payload_too_large", "The file is larger than 2 MB.");
  try {
    return await request.formData();
  } catch {
    throw new AppError("bad_request", "The form could not be read.");
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "affiliates" });
  return handleApi(async () => {
    const form = await readForm(request);
    const intent = form.get("intent");
    if (intent === "status") {
      const input = parseFormData(form, bulkStatusSchema);
      const result = await setAffiliatesStatus(ctx.shop.id, input.ids, input.action);
      return json({ intent, action: input.action, ...result });
    }
    if (intent === "create") {
      const affiliate = await addAffiliate(ctx.shop.id, readAffiliateForm(form));
      return json({ intent, id: affiliate.id });
    }
    if (intent === "import") {
      const file = form.get("file");
      if (!file || typeof file === "string") throw new AppError("bad_request", "Choose a CSV file to import.");
      if (file.size > MAX_IMPORT_BYTES) throw new AppError("payload_too_large", "The file is larger than 2 MB.");
      const result = await importAffiliatesCsv(ctx.shop.id, await file.text());
      return json({ intent, ...result }, { status: result.ok ? 200 : 422 });
    }
    throw new AppError("bad_request", "Unknown action.");
  });
}

export default function AffiliatesIndex() {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const data = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const location = useLocation();
  const navigation = useNavigation();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
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
        { content: t("import.button"), onAction: () => setImporting(true) },
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
      {exportFailed ? <Toast content={t("export.failed")} error onDismiss={() => setExportFailed(false)} /> : null}
      <AffiliatesTable
        data={data}
        timeZone={shop.timezone}
        onAdd={() => setAdding(true)}
        onImport={() => setImporting(true)}
      />
      <AddAffiliateModal open={adding} onClose={() => setAdding(false)} campaigns={data.campaigns} />
      <ImportAffiliatesModal open={importing} onClose={() => setImporting(false)} />
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
