import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData, useNavigate, useParams } from "@remix-run/react";
import { NumericCell } from "~/components/NumericCell";
import { Badge, BlockStack, Card, IndexTable, InlineStack, Page, Select, Text, Thumbnail } from "@shopify/polaris";
import { FileIcon, PlayIcon, TextBlockIcon } from "@shopify/polaris-icons";
import { useTranslation } from "react-i18next";
import { CreativeUploader } from "~/components/creatives/CreativeUploader";
import { EmptyMessage } from "~/components/EmptyMessage";
import { useListScreen } from "~/components/list/useListScreen";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { useFormat } from "~/i18n/format";
import { creativeListQuerySchema } from "~/models/creatives/creative-schemas";
import { CREATIVE_KINDS } from "~/models/creatives/file-types";
import { listCreatives } from "~/models/creatives/merchant-creatives.server";
import { useShell } from "./$role";

// The merchant's media library: drop files to add images and files, add
// video links and text snippets, see how often affiliates took each one.
export const handle: RouteHandle = { i18n: ["Creatives", "Global"], title: "Creatives:title" };

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "creatives", query: creativeListQuerySchema },
  async ({ db, query }) => ({ ...(await listCreatives(db, query)), query }),
);

const KIND_ICON = { file: FileIcon, video: PlayIcon, text: TextBlockIcon } as const;

export default function CreativesIndex() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Creatives", "Global"]);
  const { role } = useParams();
  const navigate = useNavigate();
  const format = useFormat();
  const { shop } = useShell();
  const list = useListScreen({ queryParam: "q" });

  const filtered = Boolean(data.query.kind || data.query.category || data.query.q);
  return (
    <Page
      title={t("title")}
      subtitle={t("subtitle")}
      primaryAction={{ content: t("addText"), url: `/${role}/creatives/new?kind=text` }}
      secondaryActions={[{ content: t("addVideo"), url: `/${role}/creatives/new?kind=video` }]}
    >
      <BlockStack gap="400">
        <CreativeUploader />
        <Card padding="0">
          <div style={{ padding: "12px 16px" }}>
            <InlineStack gap="300" blockAlign="end">
              <Select
                label={t("filter.kind")}
                options={[
                  { label: t("filter.allKinds"), value: "" },
                  ...CREATIVE_KINDS.map((k) => ({ label: t(`kinds.${k}`), value: k })),
                ]}
                value={data.query.kind ?? ""}
                onChange={(value) => list.update({ kind: value })}
              />
              <Select
                label={t("filter.category")}
                options={[
                  { label: t("filter.allCategories"), value: "" },
                  ...data.categories.map((c) => ({ label: c, value: c })),
                ]}
                value={data.query.category ?? ""}
                onChange={(value) => list.update({ category: value })}
                disabled={data.categories.length === 0}
              />
            </InlineStack>
          </div>
          <IndexTable
            resourceName={{ singular: t("resource.one"), plural: t("resource.other") }}
            itemCount={data.rows.length}
            selectable={false}
            emptyState={
              filtered ? (
                <EmptyMessage heading={t("list.noMatch")} body={t("list.noMatchBody")} />
              ) : (
                <EmptyMessage heading={t("list.empty")} body={t("list.emptyBody")} />
              )
            }
            headings={[
              { title: t("columns.creative") },
              { title: t("columns.kind") },
              { title: t("columns.visibility") },
              { title: t("columns.downloads"), alignment: "end" },
              { title: t("columns.embeds"), alignment: "end" },
              { title: t("columns.copies"), alignment: "end" },
              { title: t("columns.added") },
            ]}
            pagination={
              data.pageCount > 1
                ? list.pages(
                    data.page,
                    data.pageCount,
                    t("pageLabel", { page: data.page, pages: data.pageCount, total: data.total }),
                  )
                : undefined
            }
          >
            {data.rows.map((row, index) => (
              <IndexTable.Row
                id={row.id}
                key={row.id}
                position={index}
                onClick={() => navigate(`/${role}/creatives/${row.id}`)}
              >
                <IndexTable.Cell>
                  <InlineStack gap="300" blockAlign="center" wrap={false}>
                    <Thumbnail
                      size="small"
                      alt=""
                      source={row.thumbnail ?? KIND_ICON[row.kind as keyof typeof KIND_ICON] ?? FileIcon}
                    />
                    <BlockStack gap="050">
                      <Text as="span" fontWeight="semibold">
                        <span data-testid="creative-title">{row.title}</span>
                      </Text>
                      {row.category ? (
                        <Text as="span" tone="subdued" variant="bodySm">
                          {row.category}
                        </Text>
                      ) : null}
                    </BlockStack>
                    {row.active ? null : <Badge>{t("hidden")}</Badge>}
                  </InlineStack>
                </IndexTable.Cell>
                <IndexTable.Cell>{t(`kinds.${row.kind}`)}</IndexTable.Cell>
                <IndexTable.Cell>
                  {row.campaignCount === null
                    ? t("visibility.all")
                    : t("visibility.some", { number: row.campaignCount })}
                </IndexTable.Cell>
                <NumericCell>
                  <span data-testid="creative-downloads">{format.number(row.uses.download)}</span>
                </NumericCell>
                <NumericCell>{format.number(row.uses.embed)}</NumericCell>
                <NumericCell>{format.number(row.uses.copy)}</NumericCell>
                <IndexTable.Cell>{format.date(row.createdAt, shop.timezone)}</IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
      </BlockStack>
    </Page>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
