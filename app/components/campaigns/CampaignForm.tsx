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
import type { TFunction } from "i18next";
import { memo, useCallback, useMemo, type Dispatch, type SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import type { CatalogueItem } from "~/models/portal/catalogue-item";
import { CataloguePicker, type PickedItem } from "../catalogue/CataloguePicker";
import { CAMPAIGN_STATUSES, COMMISSION_TYPES, RULE_COMMISSION_TYPES } from "~/models/campaigns/campaign-options";
import { RENEWAL_COMMISSION_TYPES, RENEWAL_POLICIES } from "~/models/subscriptions/renewal-policy";
import { MAX_LEVELS, rowKey, type CampaignFormValues } from "../../models/campaigns/campaign-form";

// The campaign editor's cards. State lives in the route; this renders the
// values and reports changes. Field errors use the API's paths.
//
// Each card is memoised on the values it shows, and every change goes
// through a functional update, so the callbacks stay the same between
// renders: a keystroke or "Add level" renders the card it changes, not the
// whole form (INP, issue 33), and a new level renders only that level.

interface Props {
  values: CampaignFormValues;
  onChange: Dispatch<SetStateAction<CampaignFormValues>>;
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
type Level = CampaignFormValues["levels"][number];

const amountAffix = (percent: boolean, currency: string) => (percent ? { suffix: "%" } : { prefix: currency });

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
  const set = useCallback(
    <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) =>
      onChange((prev) => ({ ...prev, [key]: value })),
    [onChange],
  );
  const isPercent = values.commission_type === "percent";

  const setRule = useCallback(
    (index: number, patch: Partial<Rule>) =>
      onChange((prev) => ({
        ...prev,
        rules: prev.rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)),
      })),
    [onChange],
  );
  const setCoupon = useCallback(
    (patch: Partial<CampaignFormValues["coupon"]>) =>
      onChange((prev) => ({ ...prev, coupon: { ...prev.coupon, ...patch } })),
    [onChange],
  );
  const renewals = values.renewals;
  const setRenewals = useCallback(
    (patch: Partial<CampaignFormValues["renewals"]>) =>
      onChange((prev) => ({ ...prev, renewals: { ...prev.renewals, ...patch } })),
    [onChange],
  );

  const details = useMemo(
    () => (
      <Layout.AnnotatedSection title={t("sections.details")} description={t("sections.detailsHelp")}>
        <Card>
          <FormLayout>
            <TextField
              label={t("fields.name")}
              autoComplete="off"
              value={values.name}
              onChange={(v) => set("name", v)}
              error={errors["name"]}
            />
            <Select
              label={t("fields.status")}
              options={CAMPAIGN_STATUSES.map((s) => ({ label: t(`states.${s}`), value: s }))}
              value={values.status}
              onChange={(v) => set("status", v as CampaignFormValues["status"])}
              helpText={t(`stateHelp.${values.status}`)}
              error={errors["status"]}
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
              error={errors["is_default"]}
            />
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>
    ),
    [values.name, values.status, values.is_default, lockedDefault, firstCampaign, errors, set, t],
  );
  const commission = useMemo(
    () => (
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
                error={errors["commission_type"]}
              />
              <TextField
                label={t("fields.commissionValue")}
                autoComplete="off"
                inputMode="decimal"
                value={values.commission_value}
                onChange={(v) => set("commission_value", v)}
                error={errors["commission_value"]}
                {...amountAffix(isPercent, currency)}
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
                error={errors["new_customer_value"]}
                {...amountAffix(isPercent, currency)}
              />
            ) : null}
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>
    ),
    [
      values.commission_type,
      values.commission_value,
      values.new_customer_enabled,
      values.new_customer_value,
      isPercent,
      currency,
      errors,
      set,
      t,
    ],
  );
  const rules = useMemo(
    () => (
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
                  error={errors[`rules.${index}.target_gid`]}
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
                      error={errors[`rules.${index}.value`]}
                      {...amountAffix(rule.commission_type === "percent", currency)}
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
            {errors["rules"] ? (
              <Text as="p" tone="critical">
                {errors["rules"]}
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
    ),
    [values.rules, catalogue, currency, errors, set, setRule, t],
  );
  const approval = useMemo(
    () => (
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
                error={errors["approval_hold_days"]}
              />
            ) : null}
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>
    ),
    [values.auto_approve_affiliates, values.auto_approve_orders, values.approval_hold_days, errors, set, t],
  );
  const tracking = useMemo(
    () => (
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
              error={errors["cookie_days"]}
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
    ),
    [values.cookie_days, values.lifetime_customer_link, errors, set, t],
  );
  const renewalsCard = useMemo(
    () => (
      <Layout.AnnotatedSection title={t("sections.renewals")} description={t("sections.renewalsHelp")}>
        <Card>
          <FormLayout>
            <FormLayout.Group>
              <Select
                label={t("renewals.policy")}
                options={RENEWAL_POLICIES.map((p) => ({ label: t(`renewals.policies.${p}`), value: p }))}
                value={renewals.policy}
                onChange={(v) => setRenewals({ policy: v as CampaignFormValues["renewals"]["policy"] })}
                error={errors["renewals.policy"]}
              />
              {renewals.policy === "orders" || renewals.policy === "months" ? (
                <TextField
                  label={t(`renewals.limit.${renewals.policy}`)}
                  autoComplete="off"
                  inputMode="numeric"
                  value={renewals.limit}
                  onChange={(v) => setRenewals({ limit: v })}
                  error={errors["renewals.limit"]}
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
                      error={errors["renewals.commission_value"]}
                      {...amountAffix(renewals.commission_type === "percent", currency)}
                    />
                  </FormLayout.Group>
                ) : null}
              </>
            )}
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>
    ),
    [renewals, currency, errors, setRenewals, t],
  );
  const coupon = useMemo(
    () => (
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
                error={errors["coupon.discount_value"]}
                {...amountAffix(values.coupon.discount_type === "percentage", currency)}
              />
            </FormLayout.Group>
            <TextField
              label={t("coupon.prefix")}
              autoComplete="off"
              value={values.coupon.prefix}
              onChange={(v) => setCoupon({ prefix: v })}
              helpText={t("coupon.prefixHelp", { example: `${values.coupon.prefix.toUpperCase()}ANNA` })}
              error={errors["coupon.prefix"]}
            />
            <Checkbox
              label={t("coupon.oncePerCustomer")}
              checked={values.coupon.once_per_customer}
              onChange={(v) => setCoupon({ once_per_customer: v })}
            />
          </FormLayout>
        </Card>
      </Layout.AnnotatedSection>
    ),
    [values.coupon, currency, errors, setCoupon, t],
  );

  return (
    <Layout>
      {details}
      {commission}
      {rules}
      <LevelsCard levels={values.levels} errors={errors} mlmAllowed={mlmAllowed} onChange={onChange} t={t} />
      {approval}
      {tracking}
      {renewalsCard}
      {coupon}
    </Layout>
  );
}

// The MLM levels. "Add level" renders this card and the new level; the
// levels already there keep their elements (memoised on their values).
const LevelsCard = memo(function LevelsCard({
  levels,
  errors,
  mlmAllowed,
  onChange,
  t,
}: {
  levels: Level[];
  errors: Record<string, string>;
  mlmAllowed: boolean;
  onChange: Dispatch<SetStateAction<CampaignFormValues>>;
  t: TFunction;
}) {
  const setLevel = useCallback(
    (index: number, patch: Partial<Level>) =>
      onChange((prev) => ({
        ...prev,
        levels: prev.levels.map((level, i) => (i === index ? { ...level, ...patch } : level)),
      })),
    [onChange],
  );
  const removeLevel = useCallback(
    (index: number) => onChange((prev) => ({ ...prev, levels: prev.levels.filter((_, i) => i !== index) })),
    [onChange],
  );
  const addLevel = () =>
    onChange((prev) => ({ ...prev, levels: [...prev.levels, { key: rowKey(), basis: "percent_of_sale", rate: "" }] }));
  return (
    <Layout.AnnotatedSection title={t("sections.levels")} description={t("sections.levelsHelp")}>
      <Card>
        <BlockStack gap="400">
          {levels.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("levels.none")}
            </Text>
          ) : null}
          {levels.map((level, index) => (
            <LevelRow
              key={level.key}
              level={level}
              index={index}
              error={errors[`levels.${index}.rate`]}
              onChange={setLevel}
              onRemove={removeLevel}
              t={t}
            />
          ))}
          {errors["levels"] ? (
            <Text as="p" tone="critical">
              {errors["levels"]}
            </Text>
          ) : null}
          {mlmAllowed ? null : (
            <Text as="p" tone="caution" id="levels-plan">
              {t("Plans:upgradeFor", { feature: t("Plans:features.mlm") })}
            </Text>
          )}
          <InlineStack>
            <Button icon={PlusIcon} disabled={!mlmAllowed || levels.length >= MAX_LEVELS} onClick={addLevel}>
              {t("levels.add")}
            </Button>
          </InlineStack>
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
});

const LevelRow = memo(function LevelRow({
  level,
  index,
  error,
  onChange,
  onRemove,
  t,
}: {
  level: Level;
  index: number;
  error: string | undefined;
  onChange: (index: number, patch: Partial<Level>) => void;
  onRemove: (index: number) => void;
  t: TFunction;
}) {
  const basisOptions = useMemo(
    () =>
      (["percent_of_sale", "percent_of_commission"] as const).map((b) => ({
        label: t(`levels.bases.${b}`),
        value: b,
      })),
    [t],
  );
  return (
    <FormLayout.Group condensed>
      <TextField
        label={t("levels.rate", { level: index + 2 })}
        autoComplete="off"
        inputMode="decimal"
        suffix="%"
        value={level.rate}
        onChange={(v) => onChange(index, { rate: v })}
        error={error}
      />
      <Select
        label={t("levels.basis", { level: index + 2 })}
        options={basisOptions}
        value={level.basis}
        onChange={(v) => onChange(index, { basis: v as Level["basis"] })}
      />
      <div style={{ paddingTop: "1.6rem" }}>
        <Button icon={DeleteIcon} tone="critical" variant="plain" onClick={() => onRemove(index)}>
          {t("levels.remove", { level: index + 2 })}
        </Button>
      </div>
    </FormLayout.Group>
  );
});
