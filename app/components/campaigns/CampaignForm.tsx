import {
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Layout,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { DeleteIcon, PlusIcon } from "@shopify/polaris-icons";
import { useTranslation } from "react-i18next";
import type { CatalogueItem } from "~/models/portal/catalogue-item";
import { CataloguePicker, type PickedItem } from "../catalogue/CataloguePicker";
import { CAMPAIGN_STATUSES, COMMISSION_TYPES, RULE_COMMISSION_TYPES } from "~/models/campaigns/campaign-options";
import { RENEWAL_COMMISSION_TYPES, RENEWAL_POLICIES } from "~/models/subscriptions/renewal-policy";
import { MAX_LEVELS, rowKey, type CampaignFormValues } from "../../models/campaigns/campaign-form";

// The campaign editor's cards. State lives in the route; this renders the
// values and reports changes. Field errors use the API's paths.

interface Props {
  values: CampaignFormValues;
  onChange: (values: CampaignFormValues) => void;
  errors: Record<string, string>;
  currency: string;
  // The stored campaign is the default: it stays so until another one takes over.
  lockedDefault: boolean;
  // The shop has no default yet: this one will be it.
  firstCampaign: boolean;
  // The catalogue's view of the rules' targets (title, image, price), by GID.
  catalogue: Record<string, CatalogueItem>;
  // The shop's plan pays levels 2 and deeper (MLM); without it no level can be added.
  mlmAllowed: boolean;
}

type Rule = CampaignFormValues["rules"][number];

/** What a rule's target looks like: the catalogue's current view, else what the picker stored. */
function pickedOf(rule: Rule, catalogue: Record<string, CatalogueItem>): PickedItem | null {
  if (!rule.target) return null;
  const known = catalogue[rule.target];
  return {
    gid: rule.target,
    title: known?.title ?? rule.target_title ?? null,
    imageUrl: known?.imageUrl ?? rule.target_image_url ?? null,
    price: known?.price ?? null,
  };
}

export function CampaignForm({
  values,
  onChange,
  errors,
  currency,
  lockedDefault,
  firstCampaign,
  catalogue,
  mlmAllowed,
}: Props) {
  const { t } = useTranslation(["Campaigns", "Global", "Plans"]);
  const set = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) =>
    onChange({ ...values, [key]: value });
  const err = (path: string) => errors[path];
  const isPercent = values.commission_type === "percent";
  const amountAffix = (percent: boolean) => (percent ? { suffix: "%" } : { prefix: currency });

  const setLevel = (index: number, patch: Partial<CampaignFormValues["levels"][number]>) =>
    set(
      "levels",
      values.levels.map((level, i) => (i === index ? { ...level, ...patch } : level)),
    );
  const setRule = (index: number, patch: Partial<Rule>) =>
    set(
      "rules",
      values.rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)),
    );
  const setCoupon = (patch: Partial<CampaignFormValues["coupon"]>) => set("coupon", { ...values.coupon, ...patch });
  const renewals = values.renewals;
  const setRenewals = (patch: Partial<CampaignFormValues["renewals"]>) => set("renewals", { ...renewals, ...patch });

  return (
    <Layout>
      <Layout.AnnotatedSection title={t("sections.details")} description={t("sections.detailsHelp")}>
        <Card>
          <FormLayout>
            <TextField
              label={t("fields.name")}
              autoComplete="off"
              value={values.name}
              onChange={(v) => set("name", v)}
              error={err("name")}
            />
            <Select
              label={t("fields.status")}
              options={CAMPAIGN_STATUSES.map((s) => ({ label: t(`states.${s}`), value: s }))}
              value={values.status}
              onChange={(v) => set("status", v as CampaignFormValues["status"])}
              helpText={t(`stateHelp.${values.status}`)}
              error={err("status")}
            />
            <Checkbox
              label={t("fields.isDefault")}
              checked={values.is_default}
              disabled={lockedDefault}
              onChange={(v) => set("is_default", v)}
              helpText={
                firstCampaign
                  ? t("fields.isDefaultFirst")
                  : lockedDefault
                    ? t("fields.isDefaultLocked")
                    : t("fields.isDefaultHelp")
              }
              error={err("is_default")}
            />
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.commission")} description={t("sections.commissionHelp")}>
        <Card>
          <FormLayout>
            <FormLayout.Group>
              <Select
                label={t("fields.commissionType")}
                options={COMMISSION_TYPES.map((c) => ({
                  label: t(`commissionTypes.${c}`),
                  value: c,
                }))}
                value={values.commission_type}
                onChange={(v) => set("commission_type", v as CampaignFormValues["commission_type"])}
                error={err("commission_type")}
              />
              <TextField
                label={t("fields.commissionValue")}
                autoComplete="off"
                inputMode="decimal"
                value={values.commission_value}
                onChange={(v) => set("commission_value", v)}
                error={err("commission_value")}
                {...amountAffix(isPercent)}
              />
            </FormLayout.Group>
            <Checkbox
              label={t("fields.newCustomerEnabled")}
              checked={values.new_customer_enabled}
              onChange={(v) => set("new_customer_enabled", v)}
              helpText={t("fields.newCustomerHelp")}
            />
            {values.new_customer_enabled ? (
              <TextField
                label={t("fields.newCustomerValue")}
                autoComplete="off"
                inputMode="decimal"
                value={values.new_customer_value}
                onChange={(v) => set("new_customer_value", v)}
                error={err("new_customer_value")}
                {...amountAffix(isPercent)}
              />
            ) : null}
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.rules")} description={t("sections.rulesHelp")}>
        <Card>
          <BlockStack gap="400">
            {values.rules.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("rules.none")}
              </Text>
            ) : null}
            {values.rules.map((rule, index) => (
              <FormLayout key={rule.key}>
                <FormLayout.Group condensed>
                  <Select
                    label={t("rules.targetType")}
                    options={[
                      { label: t("rules.product"), value: "product" },
                      { label: t("rules.collection"), value: "collection" },
                    ]}
                    value={rule.target_type}
                    // Another kind of target: the one picked no longer applies.
                    onChange={(v) =>
                      setRule(index, {
                        target_type: v as Rule["target_type"],
                        target: "",
                        target_title: null,
                        target_image_url: null,
                      })
                    }
                  />
                  <Select
                    label={t("rules.kind")}
                    options={[
                      { label: t("rules.rate"), value: "rate" },
                      { label: t("rules.exclude"), value: "exclude" },
                    ]}
                    value={rule.kind}
                    onChange={(v) => setRule(index, { kind: v as Rule["kind"] })}
                  />
                </FormLayout.Group>
                <CataloguePicker
                  kind={rule.target_type}
                  label={rule.target_type === "product" ? t("rules.product") : t("rules.collection")}
                  value={pickedOf(rule, catalogue)}
                  onPick={(item) =>
                    setRule(index, { target: item.gid, target_title: item.title, target_image_url: item.imageUrl })
                  }
                  error={err(`rules.${index}.target_gid`)}
                />
                {rule.kind === "rate" ? (
                  <FormLayout.Group condensed>
                    <Select
                      label={t("rules.commissionType")}
                      options={RULE_COMMISSION_TYPES.map((c) => ({
                        label: t(`commissionTypes.${c}`),
                        value: c,
                      }))}
                      value={rule.commission_type}
                      onChange={(v) => setRule(index, { commission_type: v as Rule["commission_type"] })}
                    />
                    <TextField
                      label={t("rules.value")}
                      autoComplete="off"
                      inputMode="decimal"
                      value={rule.value}
                      onChange={(v) => setRule(index, { value: v })}
                      error={err(`rules.${index}.value`)}
                      {...amountAffix(rule.commission_type === "percent")}
                    />
                  </FormLayout.Group>
                ) : null}
                <InlineStack align="end">
                  <Button
                    icon={DeleteIcon}
                    tone="critical"
                    variant="plain"
                    onClick={() =>
                      set(
                        "rules",
                        values.rules.filter((_, i) => i !== index),
                      )
                    }
                  >
                    {t("rules.remove")}
                  </Button>
                </InlineStack>
              </FormLayout>
            ))}
            {err("rules") ? (
              <Text as="p" tone="critical">
                {err("rules")}
              </Text>
            ) : null}
            <InlineStack>
              <Button
                icon={PlusIcon}
                onClick={() =>
                  set("rules", [
                    ...values.rules,
                    {
                      key: rowKey(),
                      target_type: "product",
                      target: "",
                      target_title: null,
                      target_image_url: null,
                      kind: "rate",
                      commission_type: "percent",
                      value: "",
                    },
                  ])
                }
              >
                {t("rules.add")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.levels")} description={t("sections.levelsHelp")}>
        <Card>
          <BlockStack gap="400">
            {values.levels.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("levels.none")}
              </Text>
            ) : null}
            {values.levels.map((level, index) => (
              <FormLayout.Group key={level.key} condensed>
                <TextField
                  label={t("levels.rate", { level: index + 2 })}
                  autoComplete="off"
                  inputMode="decimal"
                  suffix="%"
                  value={level.rate}
                  onChange={(v) => setLevel(index, { rate: v })}
                  error={err(`levels.${index}.rate`)}
                />
                <Select
                  label={t("levels.basis", { level: index + 2 })}
                  options={(["percent_of_sale", "percent_of_commission"] as const).map((b) => ({
                    label: t(`levels.bases.${b}`),
                    value: b,
                  }))}
                  value={level.basis}
                  onChange={(v) => setLevel(index, { basis: v as CampaignFormValues["levels"][number]["basis"] })}
                />
                <div style={{ paddingTop: "1.6rem" }}>
                  <Button
                    icon={DeleteIcon}
                    tone="critical"
                    variant="plain"
                    onClick={() =>
                      set(
                        "levels",
                        values.levels.filter((_, i) => i !== index),
                      )
                    }
                  >
                    {t("levels.remove", { level: index + 2 })}
                  </Button>
                </div>
              </FormLayout.Group>
            ))}
            {err("levels") ? (
              <Text as="p" tone="critical">
                {err("levels")}
              </Text>
            ) : null}
            {mlmAllowed ? null : (
              <Text as="p" tone="caution" id="levels-plan">
                {t("Plans:upgradeFor", { feature: t("Plans:features.mlm") })}
              </Text>
            )}
            <InlineStack>
              <Button
                icon={PlusIcon}
                disabled={!mlmAllowed || values.levels.length >= MAX_LEVELS}
                onClick={() => set("levels", [...values.levels, { key: rowKey(), basis: "percent_of_sale", rate: "" }])}
              >
                {t("levels.add")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.approval")} description={t("sections.approvalHelp")}>
        <Card>
          <FormLayout>
            <Checkbox
              label={t("fields.autoApproveAffiliates")}
              checked={values.auto_approve_affiliates}
              onChange={(v) => set("auto_approve_affiliates", v)}
            />
            <Checkbox
              label={t("fields.autoApproveOrders")}
              checked={values.auto_approve_orders}
              onChange={(v) => set("auto_approve_orders", v)}
              helpText={t("fields.autoApproveOrdersHelp")}
            />
            {values.auto_approve_orders ? (
              <TextField
                label={t("fields.holdDays")}
                autoComplete="off"
                inputMode="numeric"
                suffix={t("days")}
                value={values.approval_hold_days}
                onChange={(v) => set("approval_hold_days", v)}
                helpText={t("fields.holdDaysHelp")}
                error={err("approval_hold_days")}
              />
            ) : null}
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.tracking")} description={t("sections.trackingHelp")}>
        <Card>
          <FormLayout>
            <TextField
              label={t("fields.cookieDays")}
              autoComplete="off"
              inputMode="numeric"
              suffix={t("days")}
              value={values.cookie_days}
              onChange={(v) => set("cookie_days", v)}
              helpText={t("fields.cookieDaysHelp")}
              error={err("cookie_days")}
            />
            <Checkbox
              label={t("fields.lifetimeLink")}
              checked={values.lifetime_customer_link}
              onChange={(v) => set("lifetime_customer_link", v)}
              helpText={t("fields.lifetimeLinkHelp")}
            />
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.renewals")} description={t("sections.renewalsHelp")}>
        <Card>
          <FormLayout>
            <FormLayout.Group>
              <Select
                label={t("renewals.policy")}
                options={RENEWAL_POLICIES.map((p) => ({ label: t(`renewals.policies.${p}`), value: p }))}
                value={renewals.policy}
                onChange={(v) => setRenewals({ policy: v as CampaignFormValues["renewals"]["policy"] })}
                error={err("renewals.policy")}
              />
              {renewals.policy === "orders" || renewals.policy === "months" ? (
                <TextField
                  label={t(`renewals.limit.${renewals.policy}`)}
                  autoComplete="off"
                  inputMode="numeric"
                  value={renewals.limit}
                  onChange={(v) => setRenewals({ limit: v })}
                  error={err("renewals.limit")}
                />
              ) : null}
            </FormLayout.Group>
            {renewals.policy === "none" ? null : (
              <>
                <Checkbox
                  label={t("renewals.ownRate")}
                  checked={renewals.own_rate}
                  onChange={(v) => setRenewals({ own_rate: v })}
                  helpText={t("renewals.ownRateHelp")}
                />
                {renewals.own_rate ? (
                  <FormLayout.Group>
                    <Select
                      label={t("renewals.commissionType")}
                      options={RENEWAL_COMMISSION_TYPES.map((c) => ({ label: t(`commissionTypes.${c}`), value: c }))}
                      value={renewals.commission_type}
                      onChange={(v) =>
                        setRenewals({ commission_type: v as CampaignFormValues["renewals"]["commission_type"] })
                      }
                    />
                    <TextField
                      label={t("renewals.commissionValue")}
                      autoComplete="off"
                      inputMode="decimal"
                      value={renewals.commission_value}
                      onChange={(v) => setRenewals({ commission_value: v })}
                      error={err("renewals.commission_value")}
                      {...amountAffix(renewals.commission_type === "percent")}
                    />
                  </FormLayout.Group>
                ) : null}
              </>
            )}
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>

      <Layout.AnnotatedSection title={t("sections.coupon")} description={t("sections.couponHelp")}>
        <Card>
          <FormLayout>
            <Checkbox
              label={t("coupon.enabled")}
              checked={values.coupon.enabled}
              onChange={(v) => setCoupon({ enabled: v })}
            />
            <FormLayout.Group>
              <Select
                label={t("coupon.discountType")}
                options={[
                  { label: t("coupon.percentage"), value: "percentage" },
                  { label: t("coupon.fixedAmount"), value: "fixed_amount" },
                ]}
                value={values.coupon.discount_type}
                onChange={(v) => setCoupon({ discount_type: v as CampaignFormValues["coupon"]["discount_type"] })}
              />
              <TextField
                label={t("coupon.discountValue")}
                autoComplete="off"
                inputMode="decimal"
                value={values.coupon.discount_value}
                onChange={(v) => setCoupon({ discount_value: v })}
                error={err("coupon.discount_value")}
                {...amountAffix(values.coupon.discount_type === "percentage")}
              />
            </FormLayout.Group>
            <TextField
              label={t("coupon.prefix")}
              autoComplete="off"
              value={values.coupon.prefix}
              onChange={(v) => setCoupon({ prefix: v })}
              helpText={t("coupon.prefixHelp", { example: `${values.coupon.prefix.toUpperCase()}ANNA` })}
              error={err("coupon.prefix")}
            />
            <Checkbox
              label={t("coupon.oncePerCustomer")}
              checked={values.coupon.once_per_customer}
              onChange={(v) => setCoupon({ once_per_customer: v })}
            />
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>
    </Layout>
  );
}
