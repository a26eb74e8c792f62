import { BlockStack, Text } from "@shopify/polaris";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import type { ReferralProgramForm } from "../../models/referrals/program-form";

// What a shopper will see, drawn from the form's unsaved values: the
// floating button with its panel open, and the popup a friend gets from a
// share link. A text left empty shows the translated default the storefront
// uses (Account.Common:referFriend.widget.*); a colour that is not (yet) a
// valid #rrggbb keeps the last sensible look instead of breaking the preview.

const HEX = /^#[0-9a-f]{6}$/i;

type WidgetValues = Pick<
  ReferralProgramForm,
  | "widgetPosition"
  | "widgetColor"
  | "widgetTextColor"
  | "widgetButtonText"
  | "widgetTitle"
  | "widgetDescription"
  | "widgetFriendTitle"
  | "widgetFriendDescription"
>;

/** The text a shopper sees: the merchant's, else the translated default. */
export function useWidgetTexts(values: WidgetValues) {
  const { t } = useTranslation("Account.Common");
  const text = (own: string, key: string) => own.trim() || t(`Account.Common:referFriend.widget.${key}`);
  return {
    buttonText: text(values.widgetButtonText, "buttonText"),
    title: text(values.widgetTitle, "title"),
    description: text(values.widgetDescription, "description"),
    friendTitle: text(values.widgetFriendTitle, "friendTitle"),
    friendDescription: text(values.widgetFriendDescription, "friendDescription"),
  };
}

export function ReferralWidgetPreview({ values, sampleCode }: { values: WidgetValues; sampleCode: string }) {
  const { t } = useTranslation("Referrals");
  const texts = useWidgetTexts(values);
  const background = HEX.test(values.widgetColor) ? values.widgetColor : "#1f5199";
  const foreground = HEX.test(values.widgetTextColor) ? values.widgetTextColor : "#ffffff";
  // The panel opens above the button, in the chosen corner; the frame grows
  // with long texts rather than cutting them off.
  const corner: CSSProperties = { alignItems: values.widgetPosition === "bottom-left" ? "flex-start" : "flex-end" };

  return (
    <BlockStack gap="300">
      <Text as="h3" variant="headingSm">
        {t("Referrals:preview.widget")}
      </Text>
      <div style={{ ...frame, ...corner }} data-testid="referral-preview-widget" data-position={values.widgetPosition}>
        <div style={panel} data-testid="referral-preview-panel">
          <div style={{ fontWeight: 650, fontSize: 15, marginBottom: 6 }} data-testid="referral-preview-title">
            {texts.title}
          </div>
          <div style={{ fontSize: 13, color: "#4a4a4a", marginBottom: 10 }} data-testid="referral-preview-description">
            {texts.description}
          </div>
          <div style={fakeInput}>name@example.com</div>
          <div style={{ ...fakeButton, background, color: foreground }}>{texts.buttonText}</div>
        </div>
        <div style={{ ...floatingButton, background, color: foreground }} data-testid="referral-preview-button">
          {texts.buttonText}
        </div>
      </div>
      <Text as="h3" variant="headingSm">
        {t("Referrals:preview.friend")}
      </Text>
      <div style={{ ...frame, minHeight: 200, alignItems: "center", justifyContent: "center" }}>
        <div style={popup} data-testid="referral-preview-friend">
          <div style={{ fontWeight: 650, fontSize: 15, marginBottom: 6 }}>{texts.friendTitle}</div>
          <div style={{ fontSize: 13, color: "#4a4a4a", marginBottom: 10 }}>{texts.friendDescription}</div>
          <div style={{ ...codeBox, borderColor: background, color: background }}>{sampleCode}</div>
        </div>
      </div>
      <Text as="p" tone="subdued" variant="bodySm">
        {t("Referrals:preview.note")}
      </Text>
    </BlockStack>
  );
}

const frame: CSSProperties = {
  display: "flex",
  flexDirection: "column",
  justifyContent: "flex-end",
  gap: 12,
  minHeight: 300,
  padding: 16,
  boxSizing: "border-box",
  borderRadius: 8,
  overflow: "hidden",
  background: "repeating-linear-gradient(0deg, #f6f6f7, #f6f6f7 22px, #efeff1 22px, #efeff1 44px)",
  border: "1px solid #e1e3e5",
};
const panel: CSSProperties = {
  width: "min(260px, 100%)",
  boxSizing: "border-box",
  padding: 14,
  borderRadius: 10,
  background: "#ffffff",
  boxShadow: "0 4px 16px rgba(0,0,0,0.18)",
  overflowWrap: "anywhere",
};
const floatingButton: CSSProperties = {
  maxWidth: "100%",
  boxSizing: "border-box",
  padding: "9px 16px",
  borderRadius: 999,
  fontWeight: 600,
  fontSize: 13,
  boxShadow: "0 2px 8px rgba(0,0,0,0.2)",
  overflowWrap: "anywhere",
};
const popup: CSSProperties = {
  width: "min(280px, 100%)",
  boxSizing: "border-box",
  padding: 16,
  borderRadius: 10,
  background: "#ffffff",
  boxShadow: "0 4px 16px rgba(0,0,0,0.18)",
  textAlign: "center",
  overflowWrap: "anywhere",
};
const fakeInput: CSSProperties = {
  border: "1px solid #c9cccf",
  borderRadius: 6,
  padding: "6px 8px",
  fontSize: 12,
  color: "#8c9196",
  marginBottom: 8,
};
const fakeButton: CSSProperties = {
  borderRadius: 6,
  padding: "7px 10px",
  fontSize: 13,
  fontWeight: 600,
  textAlign: "center",
};
const codeBox: CSSProperties = {
  border: "2px dashed",
  borderRadius: 6,
  padding: "6px 8px",
  fontFamily: "monospace",
  fontSize: 14,
  letterSpacing: 1,
  fontWeight: 700,
};
