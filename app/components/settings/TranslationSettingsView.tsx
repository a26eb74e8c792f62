import { useTranslatedError } from "~/i18n/messages";
import { useFetcher, useNavigation, useParams, useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  InlineStack,
  Page,
  Pagination,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { AppToast } from "~/components/AppToast";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ErrorBody } from "~/lib/errors";
import type { CatalogueRow } from "~/models/translations/translation-catalogue";
import type { TranslationSettings } from "~/models/translations/overrides.server";

type Language = TranslationSettings["languages"][number];

// Settings > Translations: filters (language, namespace, words, only the
// changed texts) in the URL, so the server pages and searches the list; one
// small form per text to save the merchant's wording or reset it.
export function TranslationSettingsView({ data }: { data: TranslationSettings }) {
  const { t } = useTranslation(["Settings.Translations", "Global"]);
  const { role } = useParams();
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const [q, setQ] = useState(data.q);
  const [toast, setToast] = useState<string | null>(null);
  useEffect(() => setQ(data.q), [data.q]);
  const language = data.languages.find((l) => l.code === data.language)!;

  // Any filter change starts again at the first page.
  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    next.delete("page");
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    go({ q: q.trim() || null });
  };

  return (
    <Page title={t("title")} backAction={{ url: `/${role}/settings` }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("intro")}
        </Text>
        <Card>
          <BlockStack gap="300">
            <InlineStack gap="400" wrap blockAlign="end">
              <Select
                label={t("language")}
                value={data.language}
                onChange={(value) => go({ language: value })}
                options={data.languages.map((l) => ({
                  value: l.code,
                  label: l.changed ? t("languageChanged", { name: l.name, count: l.changed }) : l.name,
                }))}
              />
              <Select
                label={t("section")}
                value={data.namespace ?? ""}
                onChange={(value) => go({ ns: value || null })}
                options={[
                  { value: "", label: t("allSections") },
                  ...data.namespaces.map((ns) => ({ value: ns, label: ns })),
                ]}
              />
              <form onSubmit={search} role="search">
                <TextField
                  label={t("search")}
                  value={q}
                  onChange={setQ}
                  autoComplete="off"
                  connectedRight={<Button submit>{t("searchButton")}</Button>}
                />
              </form>
            </InlineStack>
            <Checkbox
              label={t("changedOnly")}
              checked={data.changed}
              onChange={(checked) => go({ changed: checked ? "1" : null })}
            />
          </BlockStack>
        </Card>
        <Text as="p" variant="bodySm" tone="subdued">
          {t("results", { count: data.total })} · {t("placeholders")}
        </Text>
        {data.rows.length ? (
          <Card padding="0">
            {data.rows.map((row) => (
              <TextRow
                key={`${data.language}:${row.namespace}:${row.key}`}
                row={row}
                language={language}
                onDone={setToast}
              />
            ))}
          </Card>
        ) : (
          <Card>
            <Text as="p">{t("empty")}</Text>
          </Card>
        )}
        {data.pages > 1 ? (
          <InlineStack align="center">
            <Pagination
              hasPrevious={data.page > 1}
              hasNext={data.page < data.pages}
              onPrevious={() => setParams(withPage(params, data.page - 1))}
              onNext={() => setParams(withPage(params, data.page + 1))}
              label={t("pageOf", { page: data.page, pages: data.pages })}
            />
          </InlineStack>
        ) : null}
        {navigation.state === "loading" ? <Text as="p">{t("Global:loading")}</Text> : null}
      </BlockStack>
      {toast ? <AppToast content={toast} onDismiss={() => setToast(null)} /> : null}
    </Page>
  );
}

function withPage(params: URLSearchParams, page: number) {
  const next = new URLSearchParams(params);
  next.set("page", String(page));
  return next;
}

type ActionData = Partial<ErrorBody> & { key?: string; reset?: boolean };

function TextRow({
  row,
  language,
  onDone,
}: {
  row: CatalogueRow;
  language: Language;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation(["Settings.Translations", "Global"]);
  const fetcher = useFetcher<ActionData>();
  const current = row.override ?? row.shipped;
  const [value, setValue] = useState(current);
  useEffect(() => setValue(current), [current]);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.key)
      onDone(fetcher.data.reset ? t("resetDone") : t("Global:saveSuccessful"));
  }, [fetcher.state, fetcher.data, onDone, t]);
  const error = useTranslatedError(fetcher.state === "idle" ? fetcher.data?.error : undefined);
  const submit = (intent: "save" | "reset") =>
    fetcher.submit(
      {
        intent,
        language: language.code,
        namespace: row.namespace,
        key: row.key,
        ...(intent === "save" ? { value } : {}),
      },
      { method: "post", encType: "application/json" },
    );
  const id = `text-${row.namespace}-${row.key}`.replace(/[^A-Za-z0-9_-]/g, "-");
  return (
    <Box padding="400" borderBlockEndWidth="025" borderColor="border-secondary">
      <BlockStack gap="200">
        <InlineStack gap="200" align="space-between" blockAlign="center">
          <Text as="h3" variant="bodyMd" fontWeight="semibold" breakWord>
            {row.namespace}:{row.key}
          </Text>
          {row.override !== null ? <Badge tone="info">{t("changed")}</Badge> : null}
        </InlineStack>
        <Text as="p" tone="subdued" breakWord>
          {t("english")}: <bdi lang="en">{row.english}</bdi>
        </Text>
        {language.code !== "en" ? (
          <Text as="p" tone="subdued" breakWord>
            {t("shipped")}:{" "}
            <bdi lang={language.tag} dir={language.dir}>
              {row.shipped}
            </bdi>
          </Text>
        ) : null}
        {/* The label stays in the admin's direction; only the text runs in the language's own. */}
        <div lang={language.tag} className={language.dir === "rtl" ? "app-input-rtl" : undefined} data-testid={id}>
          <TextField
            label={t("yours")}
            value={value}
            onChange={setValue}
            multiline
            autoComplete="off"
            error={error?.fields?.value ?? error?.message}
          />
        </div>
        <InlineStack gap="200">
          <Button onClick={() => submit("save")} disabled={value === current || busy} loading={busy}>
            {t("save")}
          </Button>
          {row.override !== null ? (
            <Button onClick={() => submit("reset")} disabled={busy} variant="plain" tone="critical">
              {t("reset")}
            </Button>
          ) : null}
        </InlineStack>
      </BlockStack>
    </Box>
  );
}
