import { useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { Badge, BlockStack, Card, EmptyState, IndexTable, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { displayZone } from "~/lib/shop-day";
import { listBonusRules } from "~/models/bonuses/bonus-admin.server";
import { useShell } from "./$role";
import type { RouteHandle } from "~/i18n/route-handle";

// /{role}/bonuses: the shop's bonus rules with what each has paid so far.
export const handle: RouteHandle = { i18n: ["Bonuses", "Global"], title: "Bonuses:title" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "bonuses" }, async ({ db }) => ({
  rules: await listBonusRules(db),
}));

export default function Bonuses() {
  const { rules } = useLoaderData<typeof loader>();
  const { shop } = useShell();
  const { role } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation(["Bonuses", "Global"]);
  const format = useFormat();
  const money = (minor: number) => format.money(minor, shop.currency);
  const threshold = (r: (typeof rules)[number]) =>
    r.metric === "sales"
      ? t("summary.sales", { count: r.threshold })
      : t(`summary.${r.metric}`, { amount: money(r.threshold) });
  const reward = (r: (typeof rules)[number]) =>
    r.rewardType === "percent"
      ? t(r.kind === "booster" ? "summary.boost" : "summary.percent", { value: format.number(r.rewardValue / 100) })
      : money(r.rewardValue);
  const create = { content: t("create"), url: `/${role}/bonuses/new` };
  return (
    <Page
      title={t("title")}
      subtitle={t("Global:timeZoneNote", { zone: displayZone(shop.timezone) })}
      primaryAction={create}
    >
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("intro")}
        </Text>
        <Card padding="0">
          {rules.length === 0 ? (
            <EmptyState heading={t("empty.heading")} action={create} image="">
              <p>{t("empty.body")}</p>
            </EmptyState>
          ) : (
            <IndexTable
              resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
              itemCount={rules.length}
              selectable={false}
              headings={[
                { title: t("fields.name") },
                { title: t("fields.kind") },
                { title: t("fields.scope") },
                { title: t("fields.threshold") },
                { title: t("fields.reward") },
                { title: t("awarded") },
                { title: t("Global:fields.status") },
              ]}
            >
              {rules.map((r, index) => (
                <IndexTable.Row
                  id={r.id}
                  key={r.id}
                  position={index}
                  onClick={() => navigate(`/${role}/bonuses/${r.id}`)}
                >
                  <IndexTable.Cell>
                    <Text as="span" fontWeight="semibold">
                      {r.name}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {t(`kinds.${r.kind}`)}
                    {r.kind === "target" ? "" : ` · ${t(`periods.${r.period}`)}`}
                  </IndexTable.Cell>
                  <IndexTable.Cell>{r.campaignName ?? t("allAffiliates")}</IndexTable.Cell>
                  <IndexTable.Cell>{threshold(r)}</IndexTable.Cell>
                  <IndexTable.Cell>{reward(r)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {r.awarded.length
                      ? r.awarded
                          .map((a) => `${format.money(a.amount, a.currency)} (${format.number(a.count)})`)
                          .join(", ")
                      : "—"}
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={r.status === "active" ? "success" : undefined}>{t(`statuses.${r.status}`)}</Badge>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
      </BlockStack>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
