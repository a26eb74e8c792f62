import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  BlockStack,
  Button,
  InlineStack,
  Modal,
  ResourceItem,
  ResourceList,
  Text,
  TextField,
  Thumbnail,
} from "@shopify/polaris";
import { ImageIcon, SearchIcon } from "@shopify/polaris-icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/i18n/format";
import type { CatalogueItem, CatalogueKind, CataloguePage } from "~/models/portal/catalogue-item";
import { useShell } from "../shell-data";

// Chooses one product or collection. Embedded in the Shopify admin it is
// Shopify's own resource picker (App Bridge); standalone there is no App
// Bridge, so a modal searches the synced catalogue through /{role}/catalogue,
// a page at a time. Either way the choice comes back with its title and
// image, which the form shows instead of the GID.

export interface PickedItem {
  gid: string;
  title: string | null;
  imageUrl: string | null;
  price?: number | null;
}

interface Props {
  kind: CatalogueKind;
  value: PickedItem | null;
  onPick: (item: PickedItem) => void;
  label: string;
  error?: string;
}

export function CataloguePicker({ kind, value, onPick, label, error }: Props) {
  const { t } = useTranslation("Campaigns");
  const { mode } = useShell();
  const [open, setOpen] = useState(false);
  const buttonLabel = value
    ? t("picker.change")
    : kind === "product"
      ? t("picker.chooseProduct")
      : t("picker.chooseCollection");
  return (
    <BlockStack gap="100">
      <Text as="span" variant="bodyMd">
        {label}
      </Text>
      <InlineStack gap="300" blockAlign="center" wrap={false}>
        {value ? <PickedSummary kind={kind} item={value} /> : null}
        {mode === "embedded" ? (
          <EmbeddedPickButton kind={kind} label={buttonLabel} onPick={onPick} />
        ) : (
          <Button onClick={() => setOpen(true)} accessibilityLabel={`${buttonLabel}: ${label}`}>
            {buttonLabel}
          </Button>
        )}
      </InlineStack>
      {error ? (
        <Text as="p" tone="critical">
          {error}
        </Text>
      ) : null}
      {open ? (
        <CatalogueModal
          kind={kind}
          onClose={() => setOpen(false)}
          onPick={(item) => {
            setOpen(false);
            onPick(item);
          }}
        />
      ) : null}
    </BlockStack>
  );
}

function PickedSummary({ kind, item }: { kind: CatalogueKind; item: PickedItem }) {
  const { t } = useTranslation("Campaigns");
  const format = useFormat();
  const { shop } = useShell();
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <Thumbnail size="small" source={item.imageUrl ?? ImageIcon} alt="" />
      <BlockStack>
        <Text as="span" fontWeight="semibold" breakWord>
          {item.title ?? (kind === "product" ? t("picker.unknownProduct") : t("picker.unknownCollection"))}
        </Text>
        {item.price != null ? (
          <Text as="span" tone="subdued">
            {format.money(item.price, shop.currency)}
          </Text>
        ) : null}
      </BlockStack>
    </InlineStack>
  );
}

// Its own component: useAppBridge throws where App Bridge is not loaded (standalone).
function EmbeddedPickButton({
  kind,
  label,
  onPick,
}: {
  kind: CatalogueKind;
  label: string;
  onPick: (item: PickedItem) => void;
}) {
  const shopify = useAppBridge();
  async function pick() {
    const chosen = await shopify.resourcePicker({ type: kind, action: "select", multiple: false });
    const first = chosen?.[0];
    if (!first) return;
    const image =
      "images" in first ? first.images?.[0]?.originalSrc : "image" in first ? first.image?.originalSrc : undefined;
    // The rule stores only an absolute http(s) image address (the schema
    // refuses others); a picture Shopify gives without one is left out rather
    // than blocking the save with an error on a field the merchant cannot see.
    onPick({
      gid: first.id,
      title: first.title ?? null,
      imageUrl: image && /^https?:\/\//i.test(image) ? image : null,
    });
  }
  return <Button onClick={() => void pick()}>{label}</Button>;
}

function CatalogueModal({
  kind,
  onClose,
  onPick,
}: {
  kind: CatalogueKind;
  onClose: () => void;
  onPick: (item: CatalogueItem) => void;
}) {
  const { t } = useTranslation("Campaigns");
  const { role, shop } = useShell();
  const format = useFormat();
  const fetcher = useFetcher<CataloguePage>();
  const [q, setQ] = useState("");
  // The pages before the one the fetcher holds (after "Show more"); the list
  // is derived from both while rendering, so no answer can be missed.
  const [earlier, setEarlier] = useState<CatalogueItem[]>([]);
  const page = fetcher.data;
  // While the next page loads, the fetcher still holds the one already in `earlier`.
  const items = earlier.length && fetcher.state !== "idle" ? earlier : [...earlier, ...(page?.items ?? [])];
  const next = page?.next ?? null;

  const load = (search: string, offset: number) => {
    setEarlier(offset > 0 ? items : []);
    const params = new URLSearchParams({ kind, q: search, offset: String(offset) });
    fetcher.load(`/${role}/catalogue?${params}`);
  };
  // A search waits for a pause in typing, so each keystroke is not a request.
  useEffect(() => {
    const timer = setTimeout(() => load(q, 0), q ? 250 : 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, kind]);
  const loading = fetcher.state !== "idle";
  const title = kind === "product" ? t("picker.chooseProduct") : t("picker.chooseCollection");
  return (
    <Modal open onClose={onClose} title={title} secondaryActions={[{ content: t("picker.cancel"), onAction: onClose }]}>
      <Modal.Section>
        <TextField
          label={kind === "product" ? t("picker.searchProducts") : t("picker.searchCollections")}
          labelHidden
          placeholder={kind === "product" ? t("picker.searchProducts") : t("picker.searchCollections")}
          prefix={<SearchIcon width={20} />}
          value={q}
          onChange={setQ}
          autoComplete="off"
          clearButton
          onClearButtonClick={() => setQ("")}
        />
      </Modal.Section>
      <ResourceList
        resourceName={
          kind === "product"
            ? { singular: t("picker.product"), plural: t("picker.products") }
            : { singular: t("picker.collection"), plural: t("picker.collections") }
        }
        items={items}
        loading={(loading || !page) && items.length === 0}
        emptyState={
          loading || !page ? undefined : (
            <Modal.Section>
              <Text as="p" tone="subdued">
                {q
                  ? t("picker.noMatch", { q })
                  : kind === "product"
                    ? t("picker.noProducts")
                    : t("picker.noCollections")}
              </Text>
            </Modal.Section>
          )
        }
        renderItem={(item) => (
          <ResourceItem
            id={item.gid}
            onClick={() => onPick(item)}
            accessibilityLabel={t("picker.pick", { title: item.title })}
            media={<Thumbnail size="small" source={item.imageUrl ?? ImageIcon} alt="" />}
          >
            <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
              <Text as="span" fontWeight="semibold" breakWord>
                {item.title}
              </Text>
              {item.price != null ? (
                <Text as="span" tone="subdued">
                  {format.money(item.price, shop.currency)}
                </Text>
              ) : null}
            </InlineStack>
          </ResourceItem>
        )}
      />
      {next !== null ? (
        <Modal.Section>
          <InlineStack align="center">
            <Button onClick={() => load(q, next)} loading={loading}>
              {t("picker.more")}
            </Button>
          </InlineStack>
        </Modal.Section>
      ) : null}
    </Modal>
  );
}
