import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import { Card, ChoiceList, FormLayout, Layout, Link, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcherResult } from "~/components/list/useFetcherResult";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { SettingsPage } from "~/components/settings/SettingsPage";
import { useShell } from "~/components/shell-data";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { translateMessage, useTranslatedError, type KeyedError } from "~/i18n/messages";
import { formatDecimalInput, parseDecimalInput } from "~/lib/decimal-input";
import { currencyExponent } from "~/lib/money";
import { loadPaymentSettings, savePaymentSettings } from "~/models/payouts/auto-pay.server";
import { availableMethods } from "~/models/payouts/payout-admin.server";
import {
  AFFILIATE_METHODS,
  paymentSettingsFormSchema,
  type AutoPay,
  type PaymentSettingsForm,
} from "~/models/payouts/payment-settings";

// Settings › Payment: what affiliates may choose, the minimum payout, how
// currencies are paid, and auto-pay (off, monthly on day N, every N days)
// with the method its batches use.
export const handle: RouteHandle = {
  i18n: ["Settings.Payment", "Payouts", "Settings"],
  title: "Settings.Payment:title",
};

export const loader = /* @__PURE__ */ merchantRoute({ area: "settings" }, async ({ db }) => {
  const [settings, methods] = await Promise.all([loadPaymentSettings(db), availableMethods(db)]);
  return { settings, methods };
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: paymentSettingsFormSchema },
  async ({ db, shop, body }) => ({ saved: await savePaymentSettings(db, body, shop.timezone) }),
);

export default function PaymentSettingsPage() {
  const { settings, methods } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const { t } = useTranslation(["Settings.Payment", "Payouts", "Global"]);
  const format = useFormat();
  const fetcher = useFetcher<{ saved?: typeof settings; error?: KeyedError }>();
  const error = useTranslatedError(fetcher.data?.error);
  const decimals = currencyExponent(shop.currency);
  const [affiliateMethods, setAffiliateMethods] = useState<string[]>(settings.affiliateMethods);
  const [bankFields, setBankFields] = useState(settings.bankFields.join("\n"));
  const [minimum, setMinimum] = useState(formatDecimalInput(settings.minimumAmount, decimals));
  const [currencyMode, setCurrencyMode] = useState(settings.currencyMode);
  const [defaultMethod, setDefaultMethod] = useState(settings.defaultMethod);
  const [mode, setMode] = useState<AutoPay["mode"]>(settings.autoPay.mode);
  const [day, setDay] = useState(String(settings.autoPay.mode === "monthly" ? settings.autoPay.day : 1));
  const [days, setDays] = useState(String(settings.autoPay.mode === "every" ? settings.autoPay.days : 30));
  const parsedMinimum = parseDecimalInput(minimum, decimals, 100_000_000);
  const minimumError = parsedMinimum.ok ? undefined : translateMessage(t, parsedMinimum.message);
  const current = fetcher.data?.saved ?? settings;
  const draft = JSON.stringify([affiliateMethods, bankFields, minimum, currencyMode, defaultMethod, mode, day, days]);
  const [savedDraft, setSavedDraft] = useState(draft);
  const [toast, setToast] = useState(false);
  useFetcherResult(fetcher, ({ saved }) => {
    if (!saved) return;
    setSavedDraft(draft);
    setToast(true);
  });

  const save = () => {
    if (!parsedMinimum.ok) return;
    const autoPay: AutoPay =
      mode === "monthly"
        ? { mode, day: Number(day) }
        : mode === "every"
          ? { mode, days: Number(days) }
          : { mode: "off" };
    const payload: PaymentSettingsForm = {
      affiliateMethods: affiliateMethods as PaymentSettingsForm["affiliateMethods"],
      bankFields: bankFields
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
      minimumAmount: parsedMinimum.value,
      currencyMode,
      defaultMethod,
      autoPay,
    };
    fetcher.submit(payload as unknown as Record<string, string>, { method: "post", encType: "application/json" });
  };

  return (
    <SettingsPage
      title={t("title")}
      form={{
        dirty: draft !== savedDraft,
        busy: fetcher.state !== "idle",
        save,
        serverError: error ? { message: error.message } : null,
        valid: parsedMinimum.ok,
        toast,
        dismissToast: () => setToast(false),
      }}
    >
      <Layout>
        <Layout.AnnotatedSection title={t("affiliateMethods.title")} description={t("affiliateMethods.help")}>
          <Card>
            <FormLayout>
              <ChoiceList
                title={t("affiliateMethods.title")}
                titleHidden
                allowMultiple
                choices={AFFILIATE_METHODS.map((m) => ({ label: t(`affiliateMethods.${m}`), value: m }))}
                selected={affiliateMethods}
                onChange={setAffiliateMethods}
              />
              {affiliateMethods.includes("bank") ? (
                <TextField
                  label={t("bankFields.label")}
                  helpText={t("bankFields.help")}
                  multiline={3}
                  autoComplete="off"
                  value={bankFields}
                  onChange={setBankFields}
                />
              ) : null}
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection title={t("minimum.title")} description={t("minimum.help")}>
          <Card>
            <FormLayout>
              <TextField
                label={t("minimum.label", { currency: shop.currency })}
                inputMode="decimal"
                autoComplete="off"
                value={minimum}
                onChange={setMinimum}
                error={minimumError}
                id="minimum-amount"
              />
              <Select
                label={t("currency.label")}
                helpText={t(`currency.help.${currencyMode}`)}
                options={[
                  { label: t("currency.separate"), value: "separate" },
                  { label: t("currency.shop", { currency: shop.currency }), value: "shop" },
                ]}
                value={currencyMode}
                onChange={(v) => setCurrencyMode(v as typeof currencyMode)}
              />
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection title={t("autoPay.title")} description={t("autoPay.help")}>
          <Card>
            <FormLayout>
              <Select
                label={t("autoPay.mode")}
                options={[
                  { label: t("autoPay.off"), value: "off" },
                  { label: t("autoPay.monthly"), value: "monthly" },
                  { label: t("autoPay.every"), value: "every" },
                ]}
                value={mode}
                onChange={(v) => setMode(v as AutoPay["mode"])}
              />
              {mode === "monthly" ? (
                <TextField
                  label={t("autoPay.day")}
                  type="number"
                  min={1}
                  max={28}
                  autoComplete="off"
                  value={day}
                  onChange={setDay}
                  helpText={t("autoPay.dayHelp")}
                />
              ) : null}
              {mode === "every" ? (
                <TextField
                  label={t("autoPay.days")}
                  type="number"
                  min={1}
                  max={365}
                  autoComplete="off"
                  value={days}
                  onChange={setDays}
                />
              ) : null}
              <Select
                label={t("autoPay.method")}
                options={methods.map((m) => ({
                  label: t(`Payouts:methods.${m.method}`),
                  value: m.method,
                  disabled: !m.enabled,
                }))}
                value={defaultMethod}
                onChange={(v) => setDefaultMethod(v as typeof defaultMethod)}
              />
              <Text as="p" tone="subdued" id="next-run">
                {current.nextRunAt
                  ? t("autoPay.next", { date: format.dateTime(current.nextRunAt, shop.timezone) })
                  : t("autoPay.none")}
              </Text>
              <Link url={`/${role}/paypal/connect`}>{t("paypalConnectTitle")}</Link>
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>
      </Layout>
    </SettingsPage>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
