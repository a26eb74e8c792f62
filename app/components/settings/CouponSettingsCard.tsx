import { useNavigate, useParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useTranslation } from "react-i18next";
import { couponFormSchema, type CouponForm } from "../../models/marketings/coupon-form";
import { FormErrorBanner } from "../FormErrorBanner";
import { UnsavedChangesPrompt } from "../UnsavedChangesPrompt";
import { useShell } from "../shell-data";
import { useSettingsForm } from "./useSettingsForm";

interface CampaignCoupon {
  id: string;
  name: string;
  couponEnabled: boolean;
}

// Settings > Marketings: one campaign's coupon settings at a time (the
// campaign is chosen above the form; its codes are created when an affiliate
// of that campaign is approved).
export function CouponSettingsCard({ campaigns, coupon }: { campaigns: CampaignCoupon[]; coupon: CouponForm | null }) {
  const { t } = useTranslation(["Settings.Marketings", "Campaigns", "Global"]);
  const { role } = useParams();
  const navigate = useNavigate();
  const { shop } = useShell();
  const form = useSettingsForm({
    initial: coupon ?? EMPTY,
    schema: couponFormSchema,
    t,
    savedKey: "coupon",
    extra: { intent: "coupon" },
  });
  const { values, setValues, dirty, busy, save, serverError, errorFor, toast, dismissToast } = form;
  const set = (change: Partial<CouponForm>) => setValues({ ...values, ...change });
  const percent = values.discountType === "percentage";

  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("coupons.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("coupons.body")}
          </Text>
        </BlockStack>
        {!coupon ? (
          <Text as="p">{t("coupons.none")}</Text>
        ) : (
          <>
            <UnsavedChangesPrompt dirty={dirty} />
            <InlineStack gap="200" wrap>
              {campaigns.map((c) => (
                <Badge key={c.id} tone={c.couponEnabled ? "success" : undefined}>
                  {`${c.name}: ${c.couponEnabled ? t("coupons.on") : t("coupons.off")}`}
                </Badge>
              ))}
            </InlineStack>
            <FormErrorBanner error={serverError} />
            <FormLayout>
              <Select
                label={t("coupons.campaign")}
                options={campaigns.map((c) => ({ label: c.name, value: c.id }))}
                value={values.campaignId}
                disabled={dirty}
                helpText={dirty ? t("coupons.saveFirst") : undefined}
                onChange={(id) => navigate(`/${role}/settings/marketings?campaign=${encodeURIComponent(id)}`)}
              />
              <Checkbox
                label={t("Campaigns:coupon.enabled")}
                checked={values.enabled}
                onChange={(enabled) => set({ enabled })}
              />
              <FormLayout.Group>
                <Select
                  label={t("Campaigns:coupon.discountType")}
                  options={[
                    { label: t("Campaigns:coupon.percentage"), value: "percentage" },
                    { label: t("Campaigns:coupon.fixedAmount"), value: "fixed_amount" },
                  ]}
                  value={values.discountType}
                  onChange={(v) => set({ discountType: v as CouponForm["discountType"] })}
                />
                <TextField
                  label={t("Campaigns:coupon.discountValue")}
                  autoComplete="off"
                  inputMode="decimal"
                  value={values.value}
                  onChange={(value) => set({ value })}
                  error={errorFor("value")}
                  {...(percent ? { suffix: "%" } : { prefix: shop.currency })}
                />
              </FormLayout.Group>
              <TextField
                label={t("Campaigns:coupon.prefix")}
                autoComplete="off"
                value={values.prefix}
                onChange={(prefix) => set({ prefix })}
                helpText={t("Campaigns:coupon.prefixHelp", { example: `${values.prefix.toUpperCase()}ANNA` })}
                error={errorFor("prefix")}
              />
              <Checkbox
                label={t("Campaigns:coupon.oncePerCustomer")}
                checked={values.oncePerCustomer}
                onChange={(oncePerCustomer) => set({ oncePerCustomer })}
              />
            </FormLayout>
            <InlineStack align="end">
              <Button variant="primary" onClick={save} disabled={!dirty} loading={busy}>
                {t("coupons.save")}
              </Button>
            </InlineStack>
          </>
        )}
      </BlockStack>
      {toast ? <AppToast content={t("Global:saveSuccessful")} onDismiss={dismissToast} /> : null}
    </Card>
  );
}

const EMPTY: CouponForm = {
  campaignId: "",
  enabled: false,
  discountType: "percentage",
  value: "10",
  prefix: "",
  oncePerCustomer: true,
};
