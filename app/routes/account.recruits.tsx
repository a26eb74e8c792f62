import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, DataTable, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import { AccountPage, STATUS_TONE, useAccountTimeZone } from "~/components/portal/AccountPage";
import { CopyField } from "~/components/portal/FormField";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { listRecruits } from "~/models/affiliate-account/account-data.server";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Account.Common"], portal: true, title: "Account.Common:nav.recruits" };

export const loader = /* @__PURE__ */ affiliateRoute({}, async ({ db, affiliate, pagesUrl }) => {
  const recruits = await listRecruits(db, affiliate.id);
  const recruitLink = `${pagesUrl}/signup?ref=${encodeURIComponent(affiliate.referralCode)}`;
  return { recruits, recruitLink };
});

export default function AccountRecruits() {
  const { recruits, recruitLink } = useLoaderData<typeof loader>();
  const { t } = useTranslation("Account.Common");
  const format = useFormat();
  const zone = useAccountTimeZone();
  return (
    <AccountPage title={t("recruits.title")} dated>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{t("recruits.text")}</Text>
          <CopyField label={t("recruits.link")} value={recruitLink} copyLabel={t("copy")} copiedLabel={t("copied")} />
        </BlockStack>
      </Card>
      <Card padding="0">
        {recruits.length === 0 ? (
          <div style={{ padding: 16 }}>
            <Text as="p">{t("recruits.empty")}</Text>
          </div>
        ) : (
          <DataTable
            columnContentTypes={["text", "text", "text"]}
            headings={[t("recruits.name"), t("recruits.joined"), t("recruits.status")]}
            rows={recruits.map((r) => [
              `${r.firstName} ${r.lastName.slice(0, 1)}.`,
              format.date(r.createdAt, zone),
              <Badge key="s" tone={STATUS_TONE[r.status]}>
                {t(`recruits.statuses.${r.status}`)}
              </Badge>,
            ])}
          />
        )}
      </Card>
    </AccountPage>
  );
}
