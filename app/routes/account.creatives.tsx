import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AccountPage } from "~/components/portal/AccountPage";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { formatFileSizeIn, useFormat } from "~/i18n/format";
import { galleryFor, recordCreativeUse } from "~/models/creatives/affiliate-creatives.server";
import { creativeUseSchema, galleryQuerySchema } from "~/models/creatives/creative-schemas";
import { CREATIVE_KINDS } from "~/models/creatives/file-types";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = {
  i18n: ["Account.Creatives", "Account.Common"],
  portal: true,
  title: "Account.Common:nav.creatives",
};

// The affiliate's creatives: what the merchant offers their campaign, with
// the affiliate's own link already inside the embed codes and captions. The
// page is plain HTML like every account page; the copy buttons' script
// reports a copy with a POST to this page (counted once a day per creative).
export const loader = /* @__PURE__ */ affiliateRoute(
  { query: galleryQuerySchema },
  async ({ db, affiliate, shop, appUrl, query }) => ({
    ...(await galleryFor(db, { affiliate, shop, appUrl }, query)),
    query,
  }),
);

export const action = /* @__PURE__ */ affiliateRoute({ body: creativeUseSchema }, async ({ db, affiliate, body }) =>
  recordCreativeUse(db, affiliate, body.id, body.action),
);

const pageHref = (query: { kind?: string; category?: string }, page: number) => {
  const params = new URLSearchParams();
  if (query.kind) params.set("kind", query.kind);
  if (query.category) params.set("category", query.category);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return `/account/creatives${search ? `?${search}` : ""}`;
};

export default function AccountCreatives() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation(["Account.Creatives", "Account.Common"]);
  const format = useFormat();
  const copied = t("Account.Common:copied");
  const count = (id: string, action: "embed" | "copy") => `id=${encodeURIComponent(id)}&action=${action}`;
  return (
    <AccountPage title={t("title")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p" tone="subdued">
            {t("intro")}
          </Text>
          <form method="get" action="/account/creatives" className="creative-filters">
            <label>
              <span>{t("filter.kind")}</span>
              <select name="kind" defaultValue={d.query.kind ?? ""}>
                <option value="">{t("filter.allKinds")}</option>
                {CREATIVE_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(`kinds.${k}`)}
                  </option>
                ))}
              </select>
            </label>
            {d.categories.length ? (
              <label>
                <span>{t("filter.category")}</span>
                <select name="category" defaultValue={d.query.category ?? ""}>
                  <option value="">{t("filter.allCategories")}</option>
                  {d.categories.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <button type="submit" className="creative-button">
              {t("filter.apply")}
            </button>
          </form>
        </BlockStack>
      </Card>
      {d.items.length === 0 ? (
        <Card>
          <Text as="p">
            <span data-testid="creatives-empty">{d.query.kind || d.query.category ? t("noMatch") : t("empty")}</span>
          </Text>
        </Card>
      ) : (
        <div className="creative-grid">
          {d.items.map((c) => (
            <Card key={c.id}>
              <div className="creative-card" data-testid="creative-card">
                {c.thumbnail ? (
                  <img className="creative-thumb" src={c.thumbnail} alt={c.title} loading="lazy" />
                ) : (
                  <div className="creative-placeholder" aria-hidden="true">
                    {c.kind === "file" ? (c.file?.name.split(".").pop() ?? "") : t(`kinds.${c.kind}`)}
                  </div>
                )}
                <BlockStack gap="100">
                  <Text as="h2" variant="headingMd">
                    <span data-testid="creative-title">{c.title}</span>
                  </Text>
                  {c.category ? (
                    <Text as="p" tone="subdued" variant="bodySm">
                      {c.category}
                    </Text>
                  ) : null}
                  {c.description ? <Text as="p">{c.description}</Text> : null}
                  {c.file ? (
                    <Text as="p" tone="subdued" variant="bodySm">
                      {[
                        c.width && c.height ? `${c.width} × ${c.height} px` : null,
                        formatFileSizeIn(format.tag, c.file.size),
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                    </Text>
                  ) : null}
                </BlockStack>
                {c.embedCode ? (
                  <label>
                    <Text as="span" variant="bodySm">
                      {t("embedCode")}
                    </Text>
                    <textarea className="creative-code" readOnly value={c.embedCode} data-testid="embed-code" />
                  </label>
                ) : null}
                {c.caption !== null ? (
                  <label>
                    <Text as="span" variant="bodySm">
                      {t("caption")}
                    </Text>
                    <textarea className="creative-code" readOnly value={c.caption} rows={5} data-testid="caption" />
                  </label>
                ) : null}
                {c.videoUrl ? (
                  <Text as="p" breakWord>
                    <a href={c.videoUrl} target="_blank" rel="noopener noreferrer">
                      {c.videoUrl}
                    </a>
                  </Text>
                ) : null}
                <div className="creative-actions">
                  {c.file ? (
                    <a
                      className="creative-button creative-button-primary"
                      href={`/account/creatives/${c.id}/download`}
                      download
                      data-testid="creative-download"
                    >
                      {t("download")}
                    </a>
                  ) : null}
                  {c.embedCode ? (
                    <button
                      type="button"
                      className="creative-button"
                      data-copy={c.embedCode}
                      data-copied={copied}
                      data-count={count(c.id, "embed")}
                      data-testid="copy-embed"
                    >
                      {t("copyEmbed")}
                    </button>
                  ) : null}
                  {c.caption !== null ? (
                    <button
                      type="button"
                      className="creative-button"
                      data-copy={c.caption}
                      data-copied={copied}
                      data-count={count(c.id, "copy")}
                      data-testid="copy-caption"
                    >
                      {t("copyCaption")}
                    </button>
                  ) : null}
                  {c.videoUrl ? (
                    <button
                      type="button"
                      className="creative-button"
                      data-copy={c.videoUrl}
                      data-copied={copied}
                      data-count={count(c.id, "copy")}
                    >
                      {t("copyVideo")}
                    </button>
                  ) : null}
                  {c.kind === "video" || c.kind === "file" ? (
                    <button type="button" className="creative-button" data-copy={c.link} data-copied={copied}>
                      {t("copyLink")}
                    </button>
                  ) : null}
                </div>
              </div>
            </Card>
          ))}
        </div>
      )}
      {d.pageCount > 1 ? (
        <InlineStack gap="300">
          {d.page > 1 ? <a href={pageHref(d.query, d.page - 1)}>{t("previous")}</a> : null}
          <Text as="span">{t("pageOf", { page: d.page, pages: d.pageCount })}</Text>
          {d.page < d.pageCount ? <a href={pageHref(d.query, d.page + 1)}>{t("next")}</a> : null}
        </InlineStack>
      ) : null}
    </AccountPage>
  );
}
