import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  FormLayout,
  InlineGrid,
  RadioButton,
  Select,
  Text,
} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { z } from "zod";
import { AccountPage, STATUS_TONE, useAccountTimeZone } from "~/components/portal/AccountPage";
import { FormField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { checkBody } from "~/door/door.server";
import { useTranslatedError } from "~/i18n/messages";
import type { FormActionData } from "~/lib/errors";
import { accountBalance, listAccountPayouts } from "~/models/affiliate-account/account-data.server";
import { savePayoutMethod } from "~/models/affiliate-account/account-settings.server";
import { clientAddress } from "~/models/auth/rate-limit.server";
import {
  loadAffiliatePayoutChoice,
  saveAffiliatePayoutCurrency,
} from "~/models/payouts/affiliate-payout-choice.server";
import { formatGiftCardCode } from "~/models/payouts/gift-card-code";
import { bankFieldName, payoutChoiceFormSchema } from "~/models/payouts/payout-choice";
import type { RouteHandle } from "~/i18n/route-handle";
import { taxFormHolds } from "~/models/tax-forms/tax-form-hold.server";
import { currentTaxForm } from "~/models/tax-forms/tax-form-store.server";
import { convertedView } from "~/models/payouts/converted-view";
import { rateHolds } from "~/models/payouts/payout-currency.server";
import { payoutCurrencyFormSchema, payoutCurrencyOptions } from "~/models/payouts/payout-currency-choice";

export const handle: RouteHandle = {
  i18n: ["Account.Payouts", "Account.Common", "Account.TaxForm"],
  portal: true,
  title: "Account.Common:nav.payouts",
};

const query = z.object({ saved: z.literal("1").optional().catch(undefined) });

export const loader = /* @__PURE__ */ affiliateRoute({ query }, async ({ db, affiliate, shop, query }) => {
  const [balance, payouts, choice] = await Promise.all([
    accountBalance(db, affiliate.id),
    listAccountPayouts(db, affiliate.id),
    loadAffiliatePayoutChoice(db, db.$shopId, affiliate.id),
  ]);
  const payment = choice.settings;
  // Payouts waiting for the affiliate's tax form (the shop's Settings › Tax forms).
  // (The holds look at the rows just read, not at a second read of them.)
  const pending = payouts.filter((p) => p.status === "pending").map((p) => ({ ...p, affiliateId: affiliate.id }));
  const [held, taxForm, noRate] = await Promise.all([
    taxFormHolds(db, db.$shopId, pending),
    currentTaxForm(db, affiliate.id),
    // ...and for an exchange rate into the currency the affiliate chose (ADR 052).
    rateHolds(db, db.$shopId, pending),
  ]);
  return {
    held: payouts.filter((p) => held.has(p.id)).map((p) => ({ id: p.id, amount: p.amount, currency: p.currency })),
    taxForm: taxForm ? { kind: taxForm.kind } : null,
    noRate: payouts
      .filter((p) => noRate.has(p.id))
      .map((p) => ({ id: p.id, amount: p.amount, currency: p.currency, to: noRate.get(p.id)!.currency })),
    // The currencies the affiliate may be paid in (none but the shop's: no choice to show).
    currencies:
      payment.payoutCurrencies.length > 0 ? payoutCurrencyOptions(shop.currency, payment.payoutCurrencies) : null,
    payoutCurrency: choice.payoutCurrency ?? shop.currency,
    balance,
    // A cancelled payout was never paid and its lines are back in the
    // balance: the affiliate sees the balance, not the merchant's bookkeeping.
    // A CSV batch is a payment by hand, as far as the affiliate can tell.
    payouts: payouts
      .filter((p) => p.status !== "cancelled")
      .map(({ payoutCurrency, payoutAmount, payoutRate, payoutRateSource, payoutRateBy: _by, payoutRateAt, ...p }) => ({
        ...p,
        // What reached them in their currency; who entered the rate is the shop's business.
        converted: convertedView({
          payoutCurrency,
          payoutAmount,
          payoutRate,
          payoutRateSource,
          payoutRateBy: null,
          payoutRateAt,
        }),
      }))
      // A pending payout has no method yet: it will be paid as the affiliate is paid now.
      .map((p) => ({ ...p, method: p.status === "pending" ? choice.view.method : p.method }))
      .map((p) => ({ ...p, method: p.method === "csv" ? "manual" : p.method })),
    nextPayoutAt: payment.nextRunAt,
    // What the merchant offers, and what the affiliate chose (bank details only masked).
    offer: { methods: payment.affiliateMethods, bankFields: payment.bankFields },
    chosen: choice.view.chosen,
    paypalEmail: choice.paypalEmail,
    bankMask: choice.bankComplete ? choice.bankMask : null,
    money: { currency: shop.currency, format: shop.moneyFormat },
    saved: query.saved === "1",
  };
});

// The page's two forms post here, so an error (a value the page did not
// offer) comes back on the page, beside the field, in the affiliate's
// language. The currency form is the one that sends payoutCurrency.
const anyForm = z.record(z.string(), z.unknown());

export const action = /* @__PURE__ */ affiliateRoute({ body: anyForm }, async ({ request, db, affiliate, body }) => {
  if ("payoutCurrency" in body) {
    // The currency the affiliate is paid in, among those the shop allows (ADR 052): no password,
    // the money still goes to the same place.
    const form = checkBody(payoutCurrencyFormSchema, { kind: "form", value: body });
    await saveAffiliatePayoutCurrency(db, db.$shopId, affiliate.id, form);
  } else {
    // Where the money goes: the change asks for the affiliate's password.
    const form = checkBody(payoutChoiceFormSchema, { kind: "form", value: body });
    await savePayoutMethod(db, affiliate.id, form, clientAddress(request));
  }
  return redirect("/account/payouts?saved=1");
});

const keep = () => undefined;

export default function AccountPayouts() {
  const {
    balance,
    payouts,
    paypalEmail,
    money,
    saved,
    nextPayoutAt,
    offer,
    chosen,
    bankMask,
    held,
    taxForm,
    noRate,
    currencies,
    payoutCurrency,
  } = useLoaderData<typeof loader>();
  const data = useActionData<FormActionData>();
  const { t } = useTranslation("Account.Payouts");
  const error = useTranslatedError(data?.error);
  const format = useFormat();
  const zone = useAccountTimeZone();
  const m = (v: number, currency = money.currency) => format.money(v, currency);
  // What was sent again after an error, else the saved choice while the shop offers it, else the first offered.
  const selected =
    data?.values?.method ?? (chosen && offer.methods.includes(chosen as never) ? chosen : offer.methods[0]);
  return (
    <AccountPage title={t("title")} dated>
      {held.map((h) => (
        <Banner key={h.id} tone="warning" title={t("Account.TaxForm:heldNotice", { amount: m(h.amount, h.currency) })}>
          <p id="tax-hold">
            <a href="/account/payouts/tax-form">{t("Account.TaxForm:heldAction")}</a>
          </p>
        </Banner>
      ))}
      {noRate.map((h) => (
        <Banner key={h.id} tone="warning">
          <p id="rate-hold">{t("rateHold", { amount: m(h.amount, h.currency), currency: h.to })}</p>
        </Banner>
      ))}
      {nextPayoutAt ? (
        <Text as="p" id="next-payout">
          {t("nextPayout", { date: format.date(nextPayoutAt, zone) })}
        </Text>
      ) : null}
      <InlineGrid columns={2} gap="400">
        <Card>
          <Text as="h2" tone="subdued">
            {t("balance")}
          </Text>
          <Text as="p" variant="headingLg" id="payout-balance">
            {format.moneyTotals(balance.payable, money.currency)}
          </Text>
        </Card>
        <Card>
          <Text as="h2" tone="subdued">
            {t("pendingApproval")}
          </Text>
          <Text as="p" variant="headingLg" id="payout-pending">
            {format.moneyTotals(balance.pending, money.currency)}
          </Text>
        </Card>
      </InlineGrid>
      <Card>
        {/* No script runs on these pages: the fields of the checked method show by CSS (app.css, .payout-choice). */}
        <form method="post" action="/account/payouts" id="payout-method" className="payout-choice">
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("method")}
            </Text>
            {saved ? (
              <Banner tone="success">
                <p>{t("Account.Common:saved")}</p>
              </Banner>
            ) : null}
            <FormLayout>
              {offer.methods.map((m) => (
                <div key={m} className={`payout-choice-option payout-choice-${m}`}>
                  <RadioButton
                    name="method"
                    id={`method-${m}`}
                    value={m}
                    label={t(`methods.${m}`)}
                    helpText={t(`choice.${m}`)}
                    checked={selected === m}
                    onChange={keep}
                  />
                  {m === "paypal" ? (
                    <div className="payout-choice-fields">
                      <FormField
                        name="paypalEmail"
                        type="email"
                        label={t("paypalEmail")}
                        value={data?.values?.paypalEmail ?? paypalEmail}
                        error={error?.fields?.paypalEmail}
                        autoComplete="email"
                      />
                    </div>
                  ) : null}
                  {m === "bank" && offer.bankFields.length > 0 ? (
                    <div className="payout-choice-fields">
                      <FormLayout>
                        {bankMask ? (
                          <Text as="p" tone="subdued" id="bank-saved">
                            {t("savedDetails", { mask: bankMask })}
                          </Text>
                        ) : null}
                        {offer.bankFields.map((label, i) => (
                          <FormField
                            key={label}
                            name={bankFieldName(i)}
                            label={label}
                            error={error?.fields?.[bankFieldName(i)]}
                            requiredIndicator={!bankMask}
                          />
                        ))}
                      </FormLayout>
                    </div>
                  ) : null}
                </div>
              ))}
              {error?.fields?.method ? (
                <Text as="p" tone="critical">
                  {error.fields.method}
                </Text>
              ) : null}
              <FormField
                name="current"
                type="password"
                label={t("currentPassword")}
                helpText={t("currentPasswordHelp")}
                error={error?.fields?.current}
                autoComplete="current-password"
              />
              <Button submit variant="primary">
                {t("Account.Common:save")}
              </Button>
            </FormLayout>
          </BlockStack>
        </form>
      </Card>
      {currencies ? (
        <Card>
          <form method="post" action="/account/payouts" id="payout-currency">
            <FormLayout>
              <Select
                label={t("currency")}
                name="payoutCurrency"
                id="field-payoutCurrency"
                options={currencies.map((c) => ({ value: c, label: c }))}
                value={payoutCurrency}
                error={error?.fields?.payoutCurrency}
                onChange={keep}
              />
              <Button submit>{t("Account.Common:save")}</Button>
            </FormLayout>
          </form>
        </Card>
      ) : null}
      <Card>
        <InlineGrid columns={2} gap="200">
          <Text as="p" id="tax-form-status">
            {taxForm
              ? t("Account.TaxForm:onFile", { form: t(`Account.TaxForm:kinds.${taxForm.kind}`) })
              : t("Account.TaxForm:title")}
          </Text>
          <Button url="/account/payouts/tax-form">
            {taxForm ? t("Account.TaxForm:replace") : t("Account.TaxForm:heldAction")}
          </Button>
        </InlineGrid>
      </Card>
      <Card padding="0">
        {payouts.length === 0 ? (
          <div style={{ padding: 16 }}>
            <Text as="p">{t("empty")}</Text>
          </div>
        ) : (
          <DataTable
            columnContentTypes={["text", "numeric", "text", "text", "text"]}
            headings={[t("date"), t("amount"), t("methodColumn"), t("reference"), t("status")]}
            rows={payouts.map((p) => [
              format.date(p.paidAt ?? p.createdAt, zone),
              p.converted ? (
                <BlockStack key="a" gap="050" inlineAlign="end">
                  <span>{m(p.converted.amount, p.converted.currency)}</span>
                  <Text as="span" variant="bodySm" tone="subdued" id={`converted-${p.id}`}>
                    {t("converted", { amount: m(p.amount, p.currency), date: format.dateTime(p.converted.at, zone) })}
                    {` · 1 ${p.currency} = ${format.number(Number(p.converted.rate), { maximumFractionDigits: 8 })} ${p.converted.currency}`}
                  </Text>
                </BlockStack>
              ) : (
                m(p.amount, p.currency)
              ),
              t(`methods.${p.method}`),
              referenceText(p),
              <Badge key="s" tone={STATUS_TONE[p.status]}>
                {t(`statuses.${p.status}`)}
              </Badge>,
            ])}
          />
        )}
      </Card>
    </AccountPage>
  );
}

/** What the affiliate reads as a payout's reference: the code they were paid with, else the payment's reference. */
function referenceText(p: {
  method: string;
  status: string;
  reference: string | null;
  discountCode: string | null;
  giftCardCode: string | null;
}) {
  if (p.method === "gift_card") return p.status === "paid" && p.giftCardCode ? formatGiftCardCode(p.giftCardCode) : "";
  return p.discountCode ?? p.reference ?? "";
}
