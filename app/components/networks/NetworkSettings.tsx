import { Form, useParams } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Link, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/format";
import type { NetworkMember } from "../../models/networks/network.server";
import { SettingsPage } from "../settings/SettingsPage";
import { Level, MemberRow, type LevelData } from "./NetworkTree";

// Settings › Networks: the level setup of each campaign (what uplines earn),
// a search that shows where a member sits, and the tree from its top.

export interface NetworkData {
  level: LevelData;
  q: string;
  results: (NetworkMember & { uplines: { id: string; name: string; level: number }[] })[] | null;
  campaigns: { id: string; name: string; levels: { level: number; basis: string; rate: number }[] }[];
}

export function NetworkSettings({ data }: { data: NetworkData }) {
  const { t } = useTranslation(["Settings", "Global"]);
  const { role } = useParams();
  const format = useFormat();
  const [q, setQ] = useState(data.q);
  return (
    <SettingsPage title={t("tabs.networks")}>
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("networks.levelsTitle")}
          </Text>
          <Text as="p" tone="subdued">
            {t("networks.levelsHelp")}
          </Text>
          {data.campaigns.map((c) => (
            <InlineStack key={c.id} gap="200" wrap>
              <Link url={`/${role}/campaigns/${c.id}`}>{c.name}</Link>
              <Text as="span" tone="subdued">
                {c.levels.length
                  ? c.levels
                      .map((l) =>
                        t(`networks.levelRate.${l.basis === "percent_of_commission" ? "commission" : "sale"}`, {
                          level: l.level,
                          rate: format.number(l.rate / 100),
                        }),
                      )
                      .join(" · ")
                  : t("networks.noLevels")}
              </Text>
            </InlineStack>
          ))}
        </BlockStack>
      </Card>
      <Card>
        <Form method="get">
          <InlineStack gap="200" blockAlign="end">
            <div style={{ flex: 1 }}>
              <TextField
                label={t("networks.search")}
                name="q"
                value={q}
                onChange={setQ}
                placeholder={t("networks.searchPlaceholder")}
                autoComplete="off"
              />
            </div>
            <Button submit>{t("networks.searchButton")}</Button>
          </InlineStack>
        </Form>
        {data.results ? (
          <div style={{ marginTop: 16 }}>
            <BlockStack gap="200">
              {data.results.length === 0 ? (
                <Text as="p" tone="subdued">
                  {t("networks.noResults")}
                </Text>
              ) : null}
              {data.results.map((m) => (
                <BlockStack key={m.id} gap="100">
                  <MemberRow member={m} level={m.uplines.length + 1} />
                  <Text as="p" tone="subdued">
                    {m.uplines.length
                      ? t("networks.uplinePath", {
                          path: [...m.uplines]
                            .reverse()
                            .map((u) => u.name)
                            .join(" → "),
                        })
                      : t("networks.noUplines")}
                  </Text>
                </BlockStack>
              ))}
            </BlockStack>
          </div>
        ) : null}
      </Card>
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("networks.treeTitle")}
          </Text>
          <Text as="p" tone="subdued">
            {t("networks.treeHelp")}
          </Text>
          {data.level.members.length ? (
            <Level parent={null} level={1} initial={data.level} />
          ) : (
            <Text as="p" tone="subdued">
              {t("networks.empty")}
            </Text>
          )}
        </BlockStack>
      </Card>
    </SettingsPage>
  );
}
