import type { RouteHandle } from "~/i18n/route-handle";
import { useFetcher, useLoaderData, useParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  InlineGrid,
  DataTable,
  FormLayout,
  InlineStack,
  Layout,
  Link,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
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
import { PAYPAL_CURRENCIES } from "~/models/currency/exchange-rate";
import { RATE_MAX_AGE_HOURS } from "~/models/currency/payout-conversion";
import { rateEntryFormSchema } from "~/models/currency/rate-entry-schema";
import { recentRates } from "~/models/payouts/rate-table.server";
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
  const [settings, methods, rates] = await Promise.all([
    loadPaymentSettings(db),
    availableMethods(db),
    recentRates(db),
  ]);
  const freshSince = Date.now() - RATE_MAX_AGE_HOURS * 3_600_000;
  return {
    settings,
    methods,
    rates: rates.map((r) => ({ ...r, at: r.at.toISOString(), fresh: r.at.getTime() >= freshSince })),
    maxAgeDays: RATE_MAX_AGE_HOURS / 24,
  };
});

export const action = /* @__PURE__ */ merchantRoute(
  { area: "settings", body: paymentSettingsFormSchema },
  async ({ db, shop, body }) => ({ saved: await savePaymentSettings(db, body, shop.timezone) }),
);

export default function PaymentSettingsPage() {
  const { settings, methods, rates, maxAgeDays } = useLoaderData<typeof loader>();
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
  const [payoutCurrencies, setPayoutCurrencies] = useState<string[]>(settings.payoutCurrencies);
  const [mode, setMode] = useState<AutoPay["mode"]>(settings.autoPay.mode);
  const [day, setDay] = useState(String(settings.autoPay.mode === "monthly" ? settings.autoPay.day : 1));
  const [days, setDays] = useState(String(settings.autoPay.mode === "every" ? settings.autoPay.days : 30));
  const parsedMinimum = parseDecimalInput(minimum, decimals, 100_000_000);
  const minimumError = parsedMinimum.ok ? undefined : translateMessage(t, parsedMinimum.message);
  const current = fetcher.data?.saved ?? settings;
  const draft = JSON.stringify([
    affiliateMethods,
    bankFields,
    minimum,
    currencyMode,
    defaultMethod,
    mode,
    day,
    days,
    payoutCurrencies,
  ]);
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
      payoutCurrencies: payoutCurrencies as PaymentSettingsForm["payoutCurrencies"],
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
        <Layout.AnnotatedSection title={t("rates.title")} description={t("rates.help", { days: maxAgeDays })}>
          <Card>
            <FormLayout>
              <CurrencyChoices
                title={t("rates.allowed", { currency: shop.currency })}
                currencies={PAYPAL_CURRENCIES.filter((c) => c !== shop.currency)}
                selected={payoutCurrencies}
                onChange={setPayoutCurrencies}
              />
              <RateForm
                shopCurrency={shop.currency}
                allowed={settings.payoutCurrencies}
                action={`/${role}/settings/payment/rates`}
              />
              {rates.length > 0 ? (
                <div id="rate-table">
                  <DataTable
                    columnContentTypes={["text", "numeric", "text", "text", "text"]}
                    headings={[
                      t("rates.currency"),
                      t("rates.rate"),
                      t("rates.at"),
                      t("rates.source"),
                      t("rates.state"),
                    ]}
                    rows={rates.map((r) => [
                      r.toCurrency,
                      `1 ${r.fromCurrency} = ${format.number(Number(r.rate), { maximumFractionDigits: 8 })} ${r.toCurrency}`,
                      format.dateTime(r.at, shop.timezone),
                      t("rates.enteredBy", { name: r.createdBy }),
                      <Badge key="f" tone={r.fresh ? "success" : undefined}>
                        {t(r.fresh ? "rates.fresh" : "rates.stale")}
                      </Badge>,
                    ])}
                  />
                </div>
              ) : (
                <Text as="p" tone="subdued">
                  {t("rates.none")}
                </Text>
              )}
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

/** "Add rate": checked here with the server's own schema, then posted to the rate table. */
function RateForm({ shopCurrency, allowed, action }: { shopCurrency: string; allowed: string[]; action: string }) {
  const { t } = useTranslation(["Settings.Payment", "Global"]);
  const fetcher = useFetcher<{ added?: { id: string }; error?: KeyedError }>();
  const serverError = useTranslatedError(fetcher.data?.error);
  const [currency, setCurrency] = useState(allowed[0] ?? "");
  const [rate, setRate] = useState("");
  const [touched, setTouched] = useState(false);
  useFetcherResult(fetcher, ({ added }) => {
    if (!added) return;
    setRate("");
    setTouched(false);
  });
  if (allowed.length === 0) {
    return (
      <Text as="p" tone="subdued">
        {t("rates.saveFirst")}
      </Text>
    );
  }
  const parsed = rateEntryFormSchema.safeParse({ currency: currency || allowed[0], rate });
  const fieldError = (name: "currency" | "rate") => {
    if (serverError?.fields?.[name]) return serverError.fields[name];
    if (!touched || parsed.success) return undefined;
    const issue = parsed.error.issues.find((i) => i.path[0] === name);
    return issue ? translateMessage(t, issue.message) : undefined;
  };
  const add = () => {
    setTouched(true);
    if (!parsed.success) return;
    fetcher.submit(parsed.data, { method: "post", action, encType: "application/json" });
  };
  return (
    <FormLayout>
      <FormLayout.Group condensed>
        <Select
          label={t("rates.currency")}
          options={allowed.map((c) => ({ label: c, value: c }))}
          value={currency || allowed[0]}
          onChange={setCurrency}
          error={fieldError("currency")}
          id="rate-currency"
        />
        <TextField
          label={t("rates.rateLabel", { from: shopCurrency, to: currency || allowed[0] })}
          inputMode="decimal"
          autoComplete="off"
          value={rate}
          onChange={setRate}
          onBlur={() => setTouched(true)}
          error={fieldError("rate")}
          id="rate-value"
        />
      </FormLayout.Group>
      <InlineStack gap="200">
        <Button onClick={add} loading={fetcher.state !== "idle"} id="rate-add">
          {t("rates.add")}
        </Button>
      </InlineStack>
    </FormLayout>
  );
}

export { RouteErrorBoundary as ErrorBoundary };

/**
 * The currencies affiliates may be paid in, as a grid of checkboxes: PayPal's
 * list is 24 codes, which as one column made the section longer than the
 * rest of the page. In alphabetical order (codes sort the same in every
 * language), read row by row.
 */
function CurrencyChoices({
  title,
  currencies,
  selected,
  onChange,
}: {
  title: string;
  currencies: readonly string[];
  selected: string[];
  onChange: (next: string[]) => void;
}) {
  const codes = [...currencies].sort();
  const toggle = (code: string, on: boolean) =>
    onChange(on ? codes.filter((c) => c === code || selected.includes(c)) : selected.filter((c) => c !== code));
  return (
    <BlockStack as="fieldset" gap="200" id="payout-currencies">
      <legend className="choice-grid-legend">
        <Text as="span">{title}</Text>
      </legend>
      <InlineGrid columns={{ xs: 3, sm: 4, md: 6 }} gap="100">
        {codes.map((code) => (
          <Checkbox
            key={code}
            id={`payout-currency-${code}`}
            label={code}
            checked={selected.includes(code)}
            onChange={(on) => toggle(code, on)}
          />
        ))}
      </InlineGrid>
    </BlockStack>
  );
}
