import { Form, useActionData, useNavigation, useParams } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  DataTable,
  FormLayout,
  InlineGrid,
  InlineStack,
  Link,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useShell } from "~/components/shell-data";
import { useFormat } from "~/i18n/format";
import { decodeExplanation, explanationWriter, writeExplanation } from "~/models/commissions/commission-explanation";
import { translateMessage, useTranslatedError, type KeyedError } from "~/i18n/messages";
import type { PayoutDetail } from "~/models/payouts/payouts-list.server";
import { failureReasonText } from "./failure-reason";
import { CsvBatchDownload } from "./PayoutsCsvActions";
import { PayoutStatusBadge } from "./PayoutBadges";
import { ConvertedAmount } from "./ConvertedAmount";

// One payout (payouts/{id}) or the affiliate's pending payout
// (payouts/pending/{id}): the amount, every line with a link to its sale,
// the method, PayPal ids, the status history and what can be done next.

function Field({ label, value, id }: { label: string; value: React.ReactNode; id?: string }) {
  return (
    <BlockStack gap="050">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span" id={id}>
        {value}
      </Text>
    </BlockStack>
  );
}

export function PayoutScreen({ payout, pendingView }: { payout: PayoutDetail; pendingView: boolean }) {
  const { t } = useTranslation(["Payouts", "Global"]);
  const { role } = useParams();
  const { shop } = useShell();
  const format = useFormat();
  const navigation = useNavigation();
  const data = useActionData<{ error?: KeyedError; bankDetails?: { label: string; value: string }[] }>();
  const error = useTranslatedError(data?.error);
  const busy = navigation.state !== "idle";
  const [failing, setFailing] = useState(false);
  const [paidForm, setPaidForm] = useState({ reference: "", paidOn: "", note: "" });
  const [reason, setReason] = useState("");
  const paidField = (name: keyof typeof paidForm) => ({
    name,
    value: paidForm[name],
    onChange: (v: string) => setPaidForm((f) => ({ ...f, [name]: v })),
    error: error?.fields?.[name],
    autoComplete: "off",
  });
  const money = (v: number) => format.money(v, payout.currency);
  const explain = explanationWriter((key, values) => t(key, values) as string, format.tag, payout.currency);
  // What may be done is the transition table's answer (payout-states.ts), sent by the loader.
  const { markPaid, markFailed, cancel: cancellable, retry: retryable, heldBy } = payout.actions;

  const { payTo } = payout.affiliate;
  const chosenLabel = (m: string | null) => (m ? t(`affiliateMethods.${m}`, { defaultValue: m }) : "");
  const sourceText = (source: string) => t(`methodSource.${source}`, { chosen: chosenLabel(payTo.chosen) });
  // "batch:{method}" or "batch:{method}:{why the shop's default}" (create-payout-batch.server.ts).
  const batchText = (rest: string) => {
    const [method = "", source] = rest.split(":");
    const text = t("history.batch", { method: t(`methods.${method}`, { defaultValue: method }) });
    return source ? `${text} · ${t(`methodSource.${source}`, { chosen: t("methodSource.before") })}` : text;
  };
  const history = payout.events.map((e) => [
    format.dateTime(e.createdAt, shop.timezone),
    <PayoutStatusBadge key={e.id} status={e.status} />,
    e.message.startsWith("batch:")
      ? batchText(e.message.slice(6))
      : e.message === "below_minimum"
        ? t("history.belowMinimum")
        : failureReasonText(t, e.message),
    e.actor === "system" || e.actor === "schedule" || e.actor === "paypal" ? t(`actors.${e.actor}`) : t("actors.user"),
  ]);
  const lines = payout.lines.map((l) => [
    // A bonus line has no order to link to.
    l.order ? (
      <Link key={l.id} url={`/${role}/sales/${l.order.id}`}>
        {l.order.name}
      </Link>
    ) : (
      t("kinds.bonus")
    ),
    format.date(l.order?.placedAt ?? l.createdAt, shop.timezone),
    t(`kinds.${l.kind}`, { defaultValue: l.kind }) + (l.level > 1 ? ` · ${t("level", { level: l.level })}` : ""),
    // Sale lines store how they were computed (written in the reader's words); others a message key.
    decodeExplanation(l.explanation)
      ? writeExplanation(l.explanation, explain)
      : (translateMessage(t, l.explanation) ?? ""),
    money(l.amount),
  ]);

  return (
    <Page
      title={pendingView ? t("pendingTitle") : t("detailTitle")}
      subtitle={`${payout.affiliate.name} · ${payout.affiliate.email}`}
      titleMetadata={<PayoutStatusBadge status={payout.status} />}
      backAction={{
        content: t("title"),
        url: `/${role}/payouts${payout.status === "pending" ? "" : `?status=${payout.status === "cancelled" ? "failed" : payout.status}`}`,
      }}
    >
      <BlockStack gap="400">
        {error ? (
          <Banner tone="critical">
            <p>{error.message}</p>
          </Banner>
        ) : null}
        {payout.stuck ? (
          <Banner tone="critical" title={t("paypal.again.title")}>
            <BlockStack gap="200">
              <p id="paypal-stuck">{t("paypal.again.body", { error: payout.stuck.lastError ?? "—" })}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="send-again" />
                <Button submit loading={busy}>
                  {t("paypal.again.action")}
                </Button>
              </Form>
            </BlockStack>
          </Banner>
        ) : null}
        {heldBy ? (
          <Banner tone="info" title={t("held.title", { method: t(`methods.${heldBy}`) })}>
            <p id="held-by-sender">{t("held.body")}</p>
          </Banner>
        ) : null}
        {payout.rateHold ? (
          <Banner tone="warning">
            <p id="rate-hold">{translateMessage(t, payout.rateHold)}</p>
          </Banner>
        ) : null}
        {payout.reconciledAt ? (
          <Banner tone="warning" title={t("reconciled.title")}>
            <BlockStack gap="100">
              <p id="reconciled">{t("reconciled.body")}</p>
              {payout.overpaid ? <p>{t("reconciled.overpaid", { amount: money(payout.overpaid) })}</p> : null}
            </BlockStack>
          </Banner>
        ) : null}
        {payout.failureReason && payout.status !== "pending" && payout.status !== "paid" ? (
          <Banner tone="warning" title={t("failureReason")}>
            <p id="failure-reason">
              {payout.failureReason === "below_minimum"
                ? t("history.belowMinimum")
                : failureReasonText(t, payout.failureReason)}
            </p>
          </Banner>
        ) : null}
        <Card>
          <InlineGrid columns={{ xs: 1, md: 4 }} gap="400">
            <Field
              label={t("columns.amount")}
              value={
                <BlockStack gap="100">
                  <Text as="span" variant="headingLg">
                    {money(payout.amount)}
                  </Text>
                  {payout.converted ? (
                    <ConvertedAmount
                      converted={payout.converted}
                      from={payout.currency}
                      timeZone={shop.timezone}
                      id="payout-converted"
                    />
                  ) : null}
                </BlockStack>
              }
              id="payout-amount"
            />
            <Field label={t("columns.lines")} value={format.number(payout.lineCount)} />
            <Field
              label={t("columns.method")}
              id="payout-method"
              value={
                payout.status === "pending" ? (
                  <>
                    {t(`methods.${payTo.method}`)}{" "}
                    <Text as="span" tone={payTo.source === "choice" ? "subdued" : "caution"}>
                      ({sourceText(payTo.source)})
                    </Text>
                  </>
                ) : (
                  t(`methods.${payout.method}`)
                )
              }
            />
            <Field
              label={t("columns.affiliate")}
              value={
                <Link url={`/${role}/affiliates/${payout.affiliate.id}`}>
                  {payout.affiliate.name} ({payout.affiliate.code})
                </Link>
              }
            />
            <Field
              label={t("affiliateMethod")}
              id="affiliate-method"
              value={
                payTo.chosen
                  ? `${chosenLabel(payTo.chosen)}${payTo.detail ? ` · ${payTo.detail}` : ""}`
                  : t("notChosen")
              }
            />
            <Field label={t("paypalEmail")} value={payout.affiliate.paypalEmail ?? "—"} />
            <Field label={t("columns.reference")} value={payout.reference ?? "—"} id="payout-reference" />
            <Field label={t("paidOn")} value={payout.paidAt ? format.date(payout.paidAt, shop.timezone) : "—"} />
            <Field label={t("createdOn")} value={format.date(payout.createdAt, shop.timezone)} />
            {payout.batch?.paypalBatchId ? <Field label={t("paypalBatch")} value={payout.batch.paypalBatchId} /> : null}
            {payout.paypalItemId ? (
              <Field label={t("paypalItem")} value={`${payout.paypalItemId} (${payout.paypalItemStatus ?? "—"})`} />
            ) : null}
            {payout.discountCode ? <Field label={t("discountCode")} value={payout.discountCode} /> : null}
            {payout.giftCardMask ? <Field label={t("giftCard")} value={payout.giftCardMask} /> : null}
            {payout.note ? <Field label={t("note")} value={payout.note} /> : null}
          </InlineGrid>
          {payout.batch?.method === "csv" ? (
            <Box paddingBlockStart="400">
              <CsvBatchDownload batchId={payout.batch.id} />
            </Box>
          ) : null}
        </Card>
        {payout.affiliate.bankFields.length > 0 ? (
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {t("bankDetails")}
                </Text>
                {data?.bankDetails ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="show-details" />
                    <Button submit loading={busy} id="show-bank-details">
                      {t("showDetails")}
                    </Button>
                  </Form>
                )}
              </InlineStack>
              <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
                {(data?.bankDetails ?? payout.affiliate.bankFields).map((f) => (
                  <Field key={f.label} label={f.label} value={f.value} />
                ))}
              </InlineGrid>
            </BlockStack>
          </Card>
        ) : null}
        {markPaid ? (
          <Card>
            <Form method="post">
              <input type="hidden" name="intent" value="mark-paid" />
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("markPaid.title")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("markPaid.help")}
                </Text>
                <FormLayout>
                  <FormLayout.Group>
                    <TextField label={t("columns.reference")} {...paidField("reference")} maxLength={200} />
                    <TextField label={t("paidOn")} type="date" {...paidField("paidOn")} />
                  </FormLayout.Group>
                  <TextField label={t("note")} {...paidField("note")} multiline={2} maxLength={1000} />
                </FormLayout>
                <InlineStack gap="200">
                  <Button submit variant="primary" loading={busy} id="mark-paid">
                    {t("markPaid.action", { amount: money(payout.amount) })}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Form>
          </Card>
        ) : null}
        {markFailed || cancellable ? (
          <Card>
            <BlockStack gap="300">
              {markFailed ? (
                failing ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="mark-failed" />
                    <BlockStack gap="200">
                      <TextField
                        label={t("markFailed.reason")}
                        name="reason"
                        value={reason}
                        onChange={setReason}
                        error={error?.fields?.reason}
                        autoComplete="off"
                        maxLength={500}
                      />
                      <InlineStack gap="200">
                        <Button submit tone="critical" loading={busy}>
                          {t("markFailed.action")}
                        </Button>
                        <Button onClick={() => setFailing(false)}>{t("pay.cancel")}</Button>
                      </InlineStack>
                    </BlockStack>
                  </Form>
                ) : (
                  <InlineStack gap="200">
                    <Button tone="critical" onClick={() => setFailing(true)}>
                      {t("markFailed.action")}
                    </Button>
                    {cancellable ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="cancel" />
                        <Button submit loading={busy}>
                          {t("cancelPayout")}
                        </Button>
                      </Form>
                    ) : null}
                  </InlineStack>
                )
              ) : null}
              <Text as="p" tone="subdued">
                {t("markFailed.help")}
              </Text>
            </BlockStack>
          </Card>
        ) : null}
        {retryable ? (
          <Card>
            <Form method="post">
              <input type="hidden" name="intent" value="retry" />
              <InlineStack gap="300" blockAlign="center">
                <Button submit loading={busy}>
                  {t("retry.action")}
                </Button>
                <Text as="p" tone="subdued">
                  {t("retry.help")}
                </Text>
              </InlineStack>
            </Form>
          </Card>
        ) : null}
        <Card padding="0">
          <Box padding="400">
            <Text as="h2" variant="headingMd">
              {t("lines.title", { n: format.number(payout.lineCount) })}
            </Text>
          </Box>
          {lines.length ? (
            <DataTable
              columnContentTypes={["text", "text", "text", "text", "numeric"]}
              headings={[
                t("lines.sale"),
                t("columns.date"),
                t("lines.kind"),
                t("lines.explanation"),
                t("columns.amount"),
              ]}
              rows={lines}
              totals={["", "", "", "", money(payout.lines.reduce((n, l) => n + l.amount, 0))]}
              showTotalsInFooter
            />
          ) : (
            <Box padding="400">
              <Text as="p" tone="subdued">
                {t("lines.none")}
              </Text>
            </Box>
          )}
        </Card>
        <Card padding="0">
          <Box padding="400">
            <Text as="h2" variant="headingMd">
              {t("history.title")}
            </Text>
          </Box>
          <DataTable
            columnContentTypes={["text", "text", "text", "text"]}
            headings={[t("columns.date"), t("columns.status"), t("history.what"), t("history.who")]}
            rows={history}
          />
        </Card>
      </BlockStack>
    </Page>
  );
}
