import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import { Card, FormLayout, Layout, Link, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcherResult } from "~/components/list/useFetcherResult";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { SettingsPage } from "~/components/settings/SettingsPage";
import { useShell } from "~/components/shell-data";
import { merchantRoute } from "~/door/merchant-route.server";
import { translateMessage, useTranslatedError, type KeyedError } from "~/i18n/messages";
import { formatDecimalInput, parseDecimalInput } from "~/lib/decimal-input";
import { currencyExponent } from "~/lib/money";
import { loadTaxSettings, saveTaxSettings } from "~/models/tax-forms/tax-settings.server";
import { TAX_REQUIREMENTS, taxSettingsFormSchema, type TaxSettings } from "~/models/tax-forms/tax-requirement";

// Settings › Tax forms: whether payouts wait for the affiliate's W-9 / W-8
// (off, above an amount per calendar year, always), and the way to the
// 1099-NEC export.
export const handle: RouteHandle = { i18n: ["Tax", "Settings"], title: "Tax:settings.title" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db }) => ({
  settings: await loadTaxSettings(db),
}));

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: taxSettingsFormSchema },
  async ({ db, body }) => ({ saved: await saveTaxSettings(db, body) }),
);

export default function TaxSettingsPage() {
  const { settings } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const { t } = useTranslation(["Tax", "Global"]);
  const fetcher = useFetcher<{ saved?: TaxSettings; error?: KeyedError }>();
  const error = useTranslatedError(fetcher.data?.error);
  const decimals = currencyExponent(shop.currency);
  const [require, setRequire] = useState(settings.require);
  const [amount, setAmount] = useState(formatDecimalInput(settings.amount, decimals));
  const parsed = parseDecimalInput(amount, decimals, 100_000_000_000);
  const amountError = parsed.ok ? undefined : translateMessage(t, parsed.message);
  const draft = JSON.stringify([require, amount]);
  const [savedDraft, setSavedDraft] = useState(draft);
  const [toast, setToast] = useState(false);
  useFetcherResult(fetcher, ({ saved }) => {
    if (!saved) return;
    setSavedDraft(draft);
    setToast(true);
  });
  const save = () => {
    if (!parsed.ok) return;
    const payload: TaxSettings = { require, amount: parsed.value };
    fetcher.submit(payload as unknown as Record<string, string>, { method: "post", encType: "application/json" });
  };
  return (
    <SettingsPage
      title={t("settings.title")}
      form={{
        dirty: draft !== savedDraft,
        busy: fetcher.state !== "idle",
        save,
        serverError: error ? { message: error.message } : null,
        valid: parsed.ok,
        toast,
        dismissToast: () => setToast(false),
      }}
    >
      <Layout>
        <Layout.AnnotatedSection title={t("settings.requireTitle")} description={t("settings.requireHelp")}>
          <Card>
            <FormLayout>
              <Select
                id="tax-require"
                label={t("settings.require")}
                options={TAX_REQUIREMENTS.map((r) => ({ label: t(`settings.requires.${r}`), value: r }))}
                value={require}
                onChange={(v) => setRequire(v as TaxSettings["require"])}
                helpText={t(`settings.requireHelps.${require}`)}
              />
              {require === "above" ? (
                <TextField
                  id="tax-amount"
                  label={t("settings.amount", { currency: shop.currency })}
                  helpText={t("settings.amountHelp")}
                  inputMode="decimal"
                  autoComplete="off"
                  value={amount}
                  onChange={setAmount}
                  error={amountError ?? error?.fields?.amount}
                />
              ) : null}
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection title={t("nec.title")} description={t("nec.notLegalAdvice")}>
          <Card>
            <Text as="p">
              {t("settings.necLink")} <Link url={`/${role}/payouts/tax-1099`}>{t("nec.title")}</Link>
            </Text>
          </Card>
        </Layout.AnnotatedSection>
      </Layout>
    </SettingsPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
