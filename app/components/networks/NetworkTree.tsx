import { useFetcher, useParams } from "@remix-run/react";
import { Badge, BlockStack, Button, InlineStack, Link, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/format";
import { useShell } from "../shell-data";
import type { NetworkMember } from "../../models/networks/network.server";

// One level of the MLM tree; a member with recruits opens its own level,
// loaded from the server only when asked (big subtrees stay unloaded).

export interface LevelData {
  members: NetworkMember[];
  after: string | null;
}

const LEVEL_ROUTE = "routes/$role.settings.networks";

/**
 * Where a level loads from: Settings › Networks, or (on an affiliate's page)
 * the affiliates area, which staff without the Settings permission can reach.
 */
export type LevelSource = "settings" | "affiliates";

function levelUrl(source: LevelSource, role: string, parent: string | null, after: string | null) {
  const params = new URLSearchParams();
  if (source === "affiliates" && parent) {
    if (after) params.set("after", after);
    return `/${role}/affiliates/${encodeURIComponent(parent)}/network${params.size ? `?${params}` : ""}`;
  }
  if (parent) params.set("parent", parent);
  if (after) params.set("after", after);
  params.set("_data", LEVEL_ROUTE);
  return `/${role}/settings/networks?${params}`;
}

export function MemberRow({
  member,
  level,
  children,
}: {
  member: NetworkMember;
  level: number;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("Settings");
  const { role } = useParams();
  const format = useFormat();
  const { shop } = useShell();
  return (
    <InlineStack gap="300" blockAlign="center" wrap>
      <Badge>{t("networks.levelShort", { level })}</Badge>
      <Link url={`/${role}/affiliates/${member.id}`}>{member.name || member.email}</Link>
      <Text as="span" tone="subdued">
        {member.campaignName}
      </Text>
      <Text as="span">{t("networks.salesCount", { count: member.sales })}</Text>
      <Text as="span">{t("networks.recruitsCount", { count: member.recruits })}</Text>
      <Text as="span" tone="subdued">
        {t("networks.upward", { amount: format.moneyTotals(member.generatedUpward, shop.currency) })}
      </Text>
      {children}
    </InlineStack>
  );
}

function Member({ member, level, source }: { member: NetworkMember; level: number; source: LevelSource }) {
  const { t } = useTranslation("Settings");
  const [open, setOpen] = useState(false);
  return (
    <li>
      <MemberRow member={member} level={level}>
        {member.recruits > 0 ? (
          <Button variant="plain" onClick={() => setOpen((o) => !o)} ariaExpanded={open}>
            {open ? t("networks.close") : t("networks.open")}
          </Button>
        ) : null}
      </MemberRow>
      {open ? <Level parent={member.id} level={level + 1} source={source} /> : null}
    </li>
  );
}

/** A level loaded on demand (parent given), or from data already loaded. */
export function Level({
  parent,
  level,
  initial,
  source = "settings",
}: {
  parent: string | null;
  level: number;
  initial?: LevelData;
  source?: LevelSource;
}) {
  const { t } = useTranslation("Settings");
  const { role } = useParams();
  const fetcher = useFetcher<{ network: { level: LevelData } | null }>();
  const [pages, setPages] = useState<LevelData[]>(initial ? [initial] : []);
  // Loaded once per opened member.
  const loaded = useRef(Boolean(initial));
  const { load } = fetcher;
  useEffect(() => {
    if (loaded.current) return;
    loaded.current = true;
    load(levelUrl(source, role!, parent, null));
  }, [load, source, role, parent]);
  useEffect(() => {
    const page = fetcher.data?.network?.level;
    if (fetcher.state === "idle" && page) setPages((held) => (held.includes(page) ? held : [...held, page]));
  }, [fetcher.state, fetcher.data]);
  const last = pages[pages.length - 1];
  if (!pages.length) {
    return (
      <Text as="p" tone="subdued">
        {t("networks.loading")}
      </Text>
    );
  }
  return (
    <BlockStack gap="100">
      <ul style={{ listStyle: "none", margin: 0, paddingInlineStart: level > 2 ? 24 : 0 }}>
        {pages
          .flatMap((p) => p.members)
          .map((m) => (
            <Member key={m.id} member={m} level={level} source={source} />
          ))}
      </ul>
      {last?.after ? (
        <InlineStack>
          <Button
            variant="plain"
            loading={fetcher.state !== "idle"}
            onClick={() => fetcher.load(levelUrl(source, role!, parent, last.after))}
          >
            {t("networks.more")}
          </Button>
        </InlineStack>
      ) : null}
    </BlockStack>
  );
}
