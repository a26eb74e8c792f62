import { BlockStack, Button, Card, InlineStack, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { AffiliateLinks } from "~/lib/affiliate-links";
import { HELPFUL_LINKS, type AreaCheck, type VisiblePending } from "~/lib/dashboard-access";
import { openSupportChat, supportMailto } from "~/lib/support";
import { CopyField } from "./CopyField";

// The dashboard's cards below the figures: pending approvals, links for
// affiliates, help, FAQs, instructions, helpful links and the feature list.

export function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="heading2xl" id={testId}>
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

export function PendingCard({ role, pending }: { role: string; pending: VisiblePending }) {
  const { t } = useTranslation("Dashboard");
  // Only the lists this user may open (null: not theirs to see).
  if (pending.sales === null && pending.affiliates === null && pending.commissions === null) return null;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("pending.title")}
        </Text>
        {pending.sales !== null ? (
          <Link url={`/${role}/sales?status=pending`} id="pending-sales">
            {t("pending.sales", { count: pending.sales })}
          </Link>
        ) : null}
        {pending.affiliates !== null ? (
          <Link url={`/${role}/affiliates?status=pending`} id="pending-affiliates">
            {t("pending.affiliates", { count: pending.affiliates })}
          </Link>
        ) : null}
        {pending.commissions !== null ? (
          <Link url={`/${role}/payouts`} id="pending-commissions">
            {t(pending.commissionsMore ? "pending.commissionsMore" : "pending.commissions", {
              count: pending.commissions,
            })}
          </Link>
        ) : null}
      </BlockStack>
    </Card>
  );
}

export function AffiliateLinksCard({ links }: { links: AffiliateLinks }) {
  const { t } = useTranslation("Dashboard");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("links.title")}
        </Text>
        <Text as="p" tone="subdued">
          {t("links.intro")}
        </Text>
        <CopyField id="link-landing" label={t("links.landing")} value={links.landing} />
        <CopyField id="link-signup" label={t("links.signup")} value={links.signup} />
        <CopyField id="link-login" label={t("links.login")} value={links.login} />
      </BlockStack>
    </Card>
  );
}

export function QuickHelpCard(props: { supportEmail: string; productName: string; shopUrl: string; docsUrl: string }) {
  const { t } = useTranslation("Dashboard");
  const mailto = supportMailto({
    email: props.supportEmail,
    productName: props.productName,
    topic: t("help.topic"),
    shopUrl: props.shopUrl,
  });
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("help.title")}
        </Text>
        <InlineStack gap="200">
          <Button
            onClick={() => {
              // Spec section 8: the chat widget when one is visible, else a prefilled e-mail.
              if (!openSupportChat()) window.location.href = mailto;
            }}
          >
            {t("help.liveChat")}
          </Button>
          <Button url={mailto}>{t("help.email")}</Button>
          <Button url={props.docsUrl}>{t("help.docs")}</Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

const FAQ_COUNT = 4;

export function FaqCard() {
  const { t } = useTranslation("Dashboard");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd" id="faqs">
          {t("faqs")}
        </Text>
        {Array.from({ length: FAQ_COUNT }, (_, i) => (
          <BlockStack gap="100" key={i}>
            <Text as="h3" variant="headingSm">
              {t(`faq.q${i + 1}`)}
            </Text>
            <Text as="p" tone="subdued">
              {t(`faq.a${i + 1}`)}
            </Text>
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}

export function HelpfulLinksCard({ role, can }: { role: string; can: AreaCheck }) {
  const { t } = useTranslation("Dashboard");
  const areas = HELPFUL_LINKS.filter(can);
  if (!areas.length) return null;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("helpfulLinks")}
        </Text>
        {areas.map((area) => (
          <Link key={area} url={`/${role}/${area}`}>
            {t(`helpful.${area}`)}
          </Link>
        ))}
      </BlockStack>
    </Card>
  );
}
