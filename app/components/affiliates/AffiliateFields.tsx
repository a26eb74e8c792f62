import { FormLayout, Select, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AFFILIATE_STATUSES } from "~/models/affiliates/affiliate-statuses";

export interface AffiliateFormValues {
  email: string;
  first_name: string;
  last_name: string;
  status: string;
  campaign_id: string;
  referral_code: string;
  coupon_codes: string;
  upline: string;
}

interface Props {
  values: AffiliateFormValues;
  onChange: (values: AffiliateFormValues) => void;
  errors: Record<string, string>;
  campaigns: { id: string; name: string; isDefault?: boolean }[];
  adding?: boolean;
}

/** The fields of the add and edit forms (affiliateFormSchema checks them on the server). */
export function AffiliateFields({ values, onChange, errors, campaigns, adding }: Props) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const set = (name: keyof AffiliateFormValues) => (value: string) => onChange({ ...values, [name]: value });
  const statusOptions = AFFILIATE_STATUSES.map((status) => ({ label: t(`Global:status.${status}`), value: status }));
  return (
    <FormLayout>
      <FormLayout.Group>
        <TextField
          label={t("Affiliates:fields.firstName")}
          name="first_name"
          autoComplete="off"
          value={values.first_name}
          onChange={set("first_name")}
          error={errors.first_name}
        />
        <TextField
          label={t("Affiliates:fields.lastName")}
          name="last_name"
          autoComplete="off"
          value={values.last_name}
          onChange={set("last_name")}
          error={errors.last_name}
        />
      </FormLayout.Group>
      <TextField
        label={t("Global:fields.email")}
        name="email"
        type="email"
        autoComplete="off"
        value={values.email}
        onChange={set("email")}
        error={errors.email}
      />
      <FormLayout.Group>
        <Select
          label={t("Global:fields.status")}
          name="status"
          options={
            adding ? [{ label: t("Affiliates:fields.statusByCampaign"), value: "" }, ...statusOptions] : statusOptions
          }
          value={values.status}
          onChange={set("status")}
          error={errors.status}
        />
        <Select
          label={t("Affiliates:fields.campaign")}
          name="campaign_id"
          options={[
            ...(adding ? [{ label: t("Affiliates:fields.defaultCampaign"), value: "" }] : []),
            ...campaigns.map((c) => ({ label: c.name, value: c.id })),
          ]}
          value={values.campaign_id}
          onChange={set("campaign_id")}
          error={errors.campaign_id}
        />
      </FormLayout.Group>
      <TextField
        label={t("Affiliates:fields.referralCode")}
        name="referral_code"
        autoComplete="off"
        value={values.referral_code}
        onChange={set("referral_code")}
        error={errors.referral_code}
        helpText={adding ? t("Affiliates:fields.referralCodeGenerated") : t("Affiliates:fields.referralCodeHelp")}
      />
      <TextField
        label={t("Affiliates:fields.couponCodes")}
        name="coupon_codes"
        autoComplete="off"
        multiline={2}
        value={values.coupon_codes}
        onChange={set("coupon_codes")}
        error={errors.coupon_codes}
        helpText={t("Affiliates:fields.couponCodesHelp")}
      />
      <TextField
        label={t("Affiliates:fields.upline")}
        name="upline"
        autoComplete="off"
        value={values.upline}
        onChange={set("upline")}
        error={errors.upline}
        helpText={t("Affiliates:fields.uplineHelp")}
      />
    </FormLayout>
  );
}
