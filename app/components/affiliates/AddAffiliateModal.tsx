import { useTranslatedError } from "~/i18n/messages";
import { useFetcher, useNavigate, useParams } from "@remix-run/react";
import { BlockStack, Modal } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ErrorBody } from "~/lib/errors";
import { FormErrorBanner } from "../FormErrorBanner";
import { AffiliateFields, type AffiliateFormValues } from "./AffiliateFields";

const EMPTY: AffiliateFormValues = {
  email: "",
  first_name: "",
  last_name: "",
  status: "",
  campaign_id: "",
  referral_code: "",
  coupon_codes: "",
  upline: "",
};

interface Props {
  open: boolean;
  onClose: () => void;
  campaigns: { id: string; name: string; isDefault: boolean }[];
}

/** "Add affiliate": creates one by hand, then opens their page. */
export function AddAffiliateModal({ open, onClose, campaigns }: Props) {
  const { t } = useTranslation(["Affiliates", "Global"]);
  const { role } = useParams();
  const navigate = useNavigate();
  const fetcher = useFetcher<{ id?: string } & Partial<ErrorBody>>();
  const [values, setValues] = useState(EMPTY);
  const created = fetcher.state === "idle" ? fetcher.data?.id : undefined;

  useEffect(() => {
    if (!created) return;
    setValues(EMPTY);
    onClose();
    navigate(`/${role}/affiliates/${created}`);
  }, [created, navigate, onClose, role]);

  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t("Affiliates:add.title")}
      primaryAction={{
        content: t("Affiliates:add.submit"),
        loading: fetcher.state !== "idle",
        onAction: () => fetcher.submit({ intent: "create", ...values }, { method: "post" }),
      }}
      secondaryActions={[{ content: t("Affiliates:cancel"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="400">
          <FormErrorBanner error={error} />
          <AffiliateFields
            values={values}
            onChange={setValues}
            errors={error?.fields ?? {}}
            campaigns={campaigns}
            adding
          />
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
