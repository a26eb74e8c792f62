import type { RouteHandle } from "~/i18n/route-handle";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useParams, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, ContextualSaveBar, Modal, Page, Text } from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { CampaignForm } from "~/components/campaigns/CampaignForm";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { UnsavedChangesPrompt } from "~/components/UnsavedChangesPrompt";
import { translateFields, useTranslatedError } from "~/i18n/messages";
import { AppError, type ErrorBody } from "~/lib/errors";
import { currencyExponent } from "~/lib/money";
import { merchantRoute } from "~/door/merchant-route.server";
import { recordId } from "~/door/params";
import {
  campaignAffiliateCount,
  createAdminCampaign,
  deleteCampaign,
  duplicateCampaign,
  shopHasDefaultCampaign,
} from "~/models/campaigns/campaign-admin.server";
import { campaignToForm, emptyCampaignForm, parseCampaignForm } from "~/models/campaigns/campaign-form";
import { getCampaign, updateCampaign } from "~/models/campaigns/campaigns.server";
import { catalogueItemsByGid } from "~/models/portal/catalogue-search.server";
import { readOnlyRows, requireEditable, requireFeature, requireRoomFor } from "~/models/plans/plan-usage.server";
import { planAllows } from "~/models/plans/plans";
import { ReadOnlyBanner } from "~/components/PlanLimitBanner";
import { useShell } from "./$role";
import { useSameWhileEqual } from "~/lib/use-same-while-equal";

// /{role}/campaigns/new and /{role}/campaigns/{id}: create, edit, duplicate, delete.
export const handle: RouteHandle = {
  i18n: ["Campaigns", "Plans"],
  title: ({ params }) => (params.id === "new" ? "Campaigns:newTitle" : "Campaigns:detailTitle"),
};

const NEW = "new";
const params = z.object({
  id: z.union([z.literal(NEW), recordId("campaign")], { errorMap: () => ({ message: "No campaign with this id." }) }),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "campaigns", params }, async ({ db, shop, params }) => {
  const mlm = planAllows(shop.pricingPlan, "mlm");
  if (params.id === NEW)
    return {
      campaign: null,
      catalogue: {},
      affiliateCount: 0,
      hasDefault: await shopHasDefaultCampaign(db),
      readOnly: false,
      mlm,
    };
  const campaign = await getCampaign(db, params.id);
  const locked = await readOnlyRows(db, shop.pricingPlan, "campaigns", [params.id]);
  return {
    campaign,
    catalogue: await catalogueItemsByGid(
      db,
      campaign.rules.map((r) => r.target_gid),
    ),
    affiliateCount: await campaignAffiliateCount(db, params.id),
    hasDefault: true,
    readOnly: locked.ids.length > 0,
    mlm,
  };
});

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), values: z.unknown() }),
  z.object({ intent: z.literal("duplicate") }),
  z.object({ intent: z.literal("delete") }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "campaigns", params, body: actionSchema },
  async ({ db, shop, role, params: { id }, body }) => {
    const base = `/${role}/campaigns`;
    if (body.intent === "save") {
      const form = parseCampaignForm(body.values, currencyExponent(shop.currency));
      if (!form.ok) throw new AppError("validation_failed", "Some fields are not valid.", { fields: form.fields });
      if (id !== NEW) await requireEditable(db, shop.pricingPlan, "campaigns", [id]);
      if (form.data.levels?.length) requireFeature(shop.pricingPlan, "mlm");
      if (id === NEW) {
        await requireRoomFor(db, shop.pricingPlan, "campaigns");
        const created = await createAdminCampaign(db, form.data);
        return redirect(`${base}/${created.id}?created=1`);
      }
      return { campaign: await updateCampaign(db, id, form.data) };
    }
    if (id === NEW) throw new AppError("not_found", "No campaign with this id.");
    if (body.intent === "duplicate") {
      await requireRoomFor(db, shop.pricingPlan, "campaigns");
      const copy = await duplicateCampaign(db, id);
      return redirect(`${base}/${copy.id}?duplicated=1`);
    }
    await deleteCampaign(db, id);
    return redirect(`${base}?deleted=1`);
  },
);

type ActionData = { campaign?: unknown } & Partial<ErrorBody>;

export default function CampaignDetail() {
  const { campaign, catalogue, affiliateCount, hasDefault, readOnly, mlm } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation(["Campaigns", "Global"]);
  const fetcher = useFetcher<ActionData>();
  const exponent = currencyExponent(shop.currency);
  const saved = useMemo(
    () => (campaign ? campaignToForm(campaign, exponent) : emptyCampaignForm(!hasDefault)),
    [campaign, exponent, hasDefault],
  );
  const [values, setValues] = useState(saved);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => setValues(saved), [saved]);
  // After a create or duplicate the same screen shows another campaign; the
  // redirect's flag says which toast to show.
  const arrived = search.get("created") ? "toast.created" : search.get("duplicated") ? "toast.duplicated" : null;
  useEffect(() => {
    if (arrived === "toast.created") setToast(t("toast.created"));
    if (arrived === "toast.duplicated") setToast(t("toast.duplicated"));
  }, [arrived, campaign?.id, t]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.campaign) setToast(t("Global:saveSuccessful"));
  }, [fetcher.state, fetcher.data, t]);

  const busy = fetcher.state !== "idle";
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const serverError = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  // The form's own checks give translation keys; the server's answer, its English with the keys.
  // The same object while the messages are: the form's cards are memoised on it.
  const errors = useSameWhileEqual(clientErrors ? translateFields(t, clientErrors) : (serverError?.fields ?? {}));
  const send = (body: Record<string, unknown>) =>
    fetcher.submit(body as never, { method: "post", encType: "application/json" });

  function save() {
    const parsed = parseCampaignForm(values, exponent);
    if (!parsed.ok) {
      setClientErrors(parsed.fields);
      return;
    }
    setClientErrors(null);
    send({ intent: "save", values });
  }

  function discard() {
    setValues(saved);
    setClientErrors(null);
  }

  const title = campaign ? campaign.name : t("newTitle");
  return (
    <Page
      title={title}
      backAction={{ content: t("title"), url: `/${role}/campaigns` }}
      titleMetadata={
        campaign ? (
          <>
            <Badge tone={campaign.status === "active" ? "success" : undefined}>{t(`states.${campaign.status}`)}</Badge>
            {campaign.is_default ? <Badge tone="info">{t("default")}</Badge> : null}
          </>
        ) : null
      }
      primaryAction={{
        content: t("Global:save"),
        onAction: save,
        disabled: readOnly || (!dirty && Boolean(campaign)),
        loading: busy,
      }}
      secondaryActions={
        campaign
          ? [
              {
                content: t("actions.duplicate"),
                onAction: () => send({ intent: "duplicate" }),
                disabled: busy || dirty,
              },
              {
                content: t("actions.delete"),
                destructive: true,
                onAction: () => setConfirmDelete(true),
                disabled: busy,
              },
            ]
          : []
      }
    >
      {dirty ? (
        <ContextualSaveBar
          message={t("unsavedChanges")}
          saveAction={{ content: t("Global:save"), onAction: save, loading: busy }}
          discardAction={{ content: t("discard"), onAction: discard }}
        />
      ) : null}
      <UnsavedChangesPrompt dirty={dirty && !busy} />
      <BlockStack gap="400">
        {readOnly ? <ReadOnlyBanner limit="campaigns" plansUrl={role === "admin" ? "/admin/plans" : null} /> : null}
        {!mlm && values.levels.length > 0 ? (
          <Banner
            tone="info"
            action={
              role === "admin" ? { content: t("Plans:upgradeAction"), url: "/admin/plans?upgrade=mlm" } : undefined
            }
          >
            <p>{t("Plans:mlmNotInPlan")}</p>
          </Banner>
        ) : null}
        {serverError && !serverError.fields ? (
          <Banner tone="critical" title={t("errors.notDone")}>
            <p>{serverError.message}</p>
          </Banner>
        ) : null}
        {Object.keys(errors).length ? (
          <Banner tone="critical" title={t("errors.fixFields", { count: Object.keys(errors).length })} />
        ) : null}
        {campaign ? (
          <Text as="p" tone="subdued">
            {t("affiliateCount", { count: affiliateCount })}
          </Text>
        ) : null}
        <CampaignForm
          values={values}
          onChange={setValues}
          errors={errors}
          currency={shop.currency}
          lockedDefault={campaign ? campaign.is_default : !hasDefault}
          firstCampaign={!campaign && !hasDefault}
          catalogue={catalogue}
          mlmAllowed={mlm}
        />
      </BlockStack>
      <Modal
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={t("delete.title", { name: campaign?.name ?? "" })}
        primaryAction={{
          content: t("actions.delete"),
          destructive: true,
          loading: busy,
          onAction: () => {
            setConfirmDelete(false);
            send({ intent: "delete" });
          },
        }}
        secondaryActions={[{ content: t("delete.cancel"), onAction: () => setConfirmDelete(false) }]}
      >
        <Modal.Section>
          <Text as="p">{affiliateCount > 0 ? t("delete.blocked", { count: affiliateCount }) : t("delete.body")}</Text>
        </Modal.Section>
      </Modal>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
