import {
  Badge,
  BlockStack,
  Box,
  Button,
  ButtonGroup,
  Card,
  Checkbox,
  Divider,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { ArrowDownIcon, ArrowUpIcon, DeleteIcon, EditIcon, HideIcon, ViewIcon } from "@shopify/polaris-icons";
import { useTranslation } from "react-i18next";
import { ImageDropZone } from "~/components/ImageDropZone";
import { PORTAL_LANGUAGES } from "~/i18n/language-table";
import {
  callToActionIndex,
  MAX_FIELD_OPTIONS,
  SIGNUP_FIELD_TYPES,
  type FieldMode,
  type PortalItem,
  type PortalPageContent,
  type PortalPageKind,
  type SignupField,
} from "~/lib/portal-content";

// The Portals editor: the page's sections in order (move, hide, edit,
// remove, add), the selected section's fields with images dropped in, the
// page's bars and, on the sign-up page, the form's fields. On the landing
// page the first hero carries the Join button: it can be edited and moved,
// never hidden or removed. Errors come keyed by path ("items.0.image").

type Errors = Record<string, string>;
type Set = (next: PortalPageContent) => void;

export const ITEM_TYPES = ["hero", "text", "image", "benefits", "button"] as const;

export function newItem(type: PortalItem["type"]): PortalItem {
  return {
    type,
    elements: { heading: "", text: "" },
    image: "",
    image_1: "",
    image_2: "",
    icon: "",
    link: { label: "", url: "" },
    boxTextBenifit: [],
    builtIn: false,
    hidden: false,
  };
}

function LinksEditor({
  label,
  links,
  path,
  errors,
  onChange,
}: {
  label: string;
  links: { label: string; url: string }[];
  path: string;
  errors: Errors;
  onChange: (l: { label: string; url: string }[]) => void;
}) {
  const { t } = useTranslation("Portal.schema.label");
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {label}
      </Text>
      {links.map((l, i) => (
        <InlineStack key={i} gap="200" blockAlign="end" wrap={false}>
          <TextField
            label={t("linkLabel")}
            value={l.label}
            autoComplete="off"
            onChange={(v) => onChange(links.map((x, j) => (j === i ? { ...x, label: v } : x)))}
          />
          <TextField
            label={t("linkUrl")}
            value={l.url}
            autoComplete="off"
            error={errors[`${path}.${i}.url`]}
            onChange={(v) => onChange(links.map((x, j) => (j === i ? { ...x, url: v } : x)))}
          />
          <Button
            icon={DeleteIcon}
            accessibilityLabel={t("remove")}
            onClick={() => onChange(links.filter((_, j) => j !== i))}
          />
        </InlineStack>
      ))}
      <div>
        <Button onClick={() => onChange([...links, { label: "", url: "" }])}>{t("addLink")}</Button>
      </div>
    </BlockStack>
  );
}

/** What a section is called in the list: its heading, or the built-in one's name. */
function useSectionName() {
  const { t } = useTranslation("Portal.schema.label");
  const { t: ta } = useTranslation("Account.Common");
  return (item: PortalItem, shopName: string) =>
    item.elements.heading ||
    (item.builtIn && item.type === "hero" ? ta("landing.heading", { shop: shopName }) : "") ||
    item.link.label ||
    t(`types.${item.type}`);
}

export function SectionList({
  kind,
  items,
  selected,
  shopName,
  onSelect,
  onChange,
}: {
  kind: PortalPageKind;
  items: PortalItem[];
  selected: number | null;
  shopName: string;
  onSelect: (i: number | null) => void;
  onChange: (items: PortalItem[], selected: number | null) => void;
}) {
  const { t } = useTranslation("Portal.schema.label");
  const name = useSectionName();
  const ctaAt = kind === "landing" ? callToActionIndex(items) : -1;
  const move = (i: number, d: -1 | 1) => {
    const next = [...items];
    [next[i], next[i + d]] = [next[i + d]!, next[i]!];
    onChange(next, selected === i ? i + d : selected === i + d ? i : selected);
  };
  return (
    <Card padding="0">
      <Box padding="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("sections")}
          </Text>
          <Text as="p" tone="subdued">
            {kind === "landing" ? t("sectionsHelpLanding") : t("sectionsHelp")}
          </Text>
        </BlockStack>
      </Box>
      <ul className="portal-section-list" aria-label={t("sections")}>
        {items.map((item, i) => {
          const cta = i === ctaAt;
          return (
            <li
              key={i}
              data-testid="portal-section"
              data-selected={selected === i ? "true" : undefined}
              className={selected === i ? "portal-section portal-section-selected" : "portal-section"}
            >
              <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
                <BlockStack gap="100">
                  <Text as="span" variant="bodyMd" fontWeight="semibold" tone={item.hidden ? "subdued" : undefined}>
                    {name(item, shopName)}
                  </Text>
                  <InlineStack gap="100">
                    <Badge>{t(`types.${item.type}`)}</Badge>
                    {item.builtIn ? <Badge tone="info">{t("builtIn")}</Badge> : null}
                    {cta ? <Badge tone="success">{t("joinButton")}</Badge> : null}
                    {item.hidden ? <Badge tone="attention">{t("hidden")}</Badge> : null}
                  </InlineStack>
                </BlockStack>
                <ButtonGroup variant="segmented">
                  <Button
                    icon={ArrowUpIcon}
                    accessibilityLabel={t("up")}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  />
                  <Button
                    icon={ArrowDownIcon}
                    accessibilityLabel={t("down")}
                    disabled={i === items.length - 1}
                    onClick={() => move(i, 1)}
                  />
                  <Button
                    icon={item.hidden ? ViewIcon : HideIcon}
                    accessibilityLabel={item.hidden ? t("show") : t("hide")}
                    disabled={cta}
                    onClick={() =>
                      onChange(
                        items.map((x, j) => (j === i ? { ...x, hidden: !x.hidden } : x)),
                        selected,
                      )
                    }
                  />
                  <Button
                    icon={EditIcon}
                    accessibilityLabel={t("edit")}
                    pressed={selected === i}
                    onClick={() => onSelect(selected === i ? null : i)}
                  />
                  <Button
                    icon={DeleteIcon}
                    accessibilityLabel={t("remove")}
                    disabled={cta}
                    onClick={() =>
                      onChange(
                        items.filter((_, j) => j !== i),
                        selected === i ? null : selected !== null && selected > i ? selected - 1 : selected,
                      )
                    }
                  />
                </ButtonGroup>
              </InlineStack>
            </li>
          );
        })}
      </ul>
      <Box padding="400">
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {t("addSection")}
          </Text>
          <InlineStack gap="200">
            {ITEM_TYPES.map((type) => (
              <Button
                key={type}
                disabled={items.length >= 30}
                onClick={() => onChange([...items, newItem(type)], items.length)}
              >
                {t("add", { type: t(`types.${type}`) })}
              </Button>
            ))}
          </InlineStack>
        </BlockStack>
      </Box>
    </Card>
  );
}

export function SectionEditor({
  item,
  index,
  errors,
  shopName,
  onChange,
  onClose,
}: {
  item: PortalItem;
  index: number;
  errors: Errors;
  shopName: string;
  onChange: (i: PortalItem) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("Portal.schema.label");
  const { t: ta } = useTranslation("Account.Common");
  const p = `items.${index}`;
  const builtInHero = item.builtIn && item.type === "hero";
  const image = (key: "image" | "image_1" | "image_2" | "icon") => (
    <ImageDropZone
      label={t(key)}
      value={item[key]}
      error={errors[`${p}.${key}`]}
      testId={`image-${key}`}
      onChange={(v) => onChange({ ...item, [key]: v })}
    />
  );
  const builtInBoxes = item.builtIn && item.type === "benefits" && !item.boxTextBenifit.length;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("editSection", { type: t(`types.${item.type}`) })}
          </Text>
          <Button variant="plain" onClick={onClose}>
            {t("done")}
          </Button>
        </InlineStack>
        {item.builtIn ? (
          <Text as="p" tone="subdued">
            {t("builtInHelp")}
          </Text>
        ) : null}
        <FormLayout>
          <TextField
            label={t("heading")}
            value={item.elements.heading}
            autoComplete="off"
            placeholder={builtInHero ? ta("landing.heading", { shop: shopName }) : undefined}
            onChange={(v) => onChange({ ...item, elements: { ...item.elements, heading: v } })}
          />
          {item.type !== "image" && item.type !== "button" && item.type !== "benefits" ? (
            <TextField
              label={t("elements")}
              value={item.elements.text}
              multiline={3}
              autoComplete="off"
              placeholder={builtInHero ? ta("landing.text") : undefined}
              onChange={(v) => onChange({ ...item, elements: { ...item.elements, text: v } })}
            />
          ) : null}
          {item.type === "hero" || item.type === "image" ? image("image") : null}
          {item.type === "text" ? image("icon") : null}
          {item.type === "image" ? (
            <>
              {image("image_1")}
              {image("image_2")}
            </>
          ) : null}
          {item.type === "hero" || item.type === "button" ? (
            <FormLayout.Group>
              <TextField
                label={t("linkLabel")}
                value={item.link.label}
                autoComplete="off"
                helpText={item.type === "hero" ? t("extraButtonHelp") : undefined}
                onChange={(v) => onChange({ ...item, link: { ...item.link, label: v } })}
              />
              <TextField
                label={t("link")}
                value={item.link.url}
                autoComplete="off"
                error={errors[`${p}.link.url`]}
                onChange={(v) => onChange({ ...item, link: { ...item.link, url: v } })}
              />
            </FormLayout.Group>
          ) : null}
          {item.type === "benefits" ? (
            <BlockStack gap="300">
              {builtInBoxes ? (
                <InlineStack gap="200" blockAlign="center">
                  <Text as="p" tone="subdued">
                    {t("builtInBoxes")}
                  </Text>
                  <Button
                    onClick={() =>
                      onChange({
                        ...item,
                        boxTextBenifit: (["commission", "tracking", "payout"] as const).map((k) => ({
                          icon: `/images/portal/benefit-${k}.svg`,
                          title: ta(`landing.benefits.${k}.title`),
                          text: ta(`landing.benefits.${k}.text`),
                        })),
                      })
                    }
                  >
                    {t("customizeBoxes")}
                  </Button>
                </InlineStack>
              ) : null}
              {item.boxTextBenifit.map((b, i) => {
                const setBox = (next: Partial<typeof b>) =>
                  onChange({
                    ...item,
                    boxTextBenifit: item.boxTextBenifit.map((x, j) => (j === i ? { ...x, ...next } : x)),
                  });
                return (
                  <Box key={i} padding="300" borderColor="border" borderWidth="025" borderRadius="200">
                    <BlockStack gap="200">
                      <InlineStack gap="200" blockAlign="end" wrap={false}>
                        <div style={{ flex: 1 }}>
                          <TextField
                            label={t("boxTextBenifit")}
                            value={b.title}
                            autoComplete="off"
                            onChange={(v) => setBox({ title: v })}
                          />
                        </div>
                        <Button
                          icon={DeleteIcon}
                          accessibilityLabel={t("remove")}
                          onClick={() =>
                            onChange({ ...item, boxTextBenifit: item.boxTextBenifit.filter((_, j) => j !== i) })
                          }
                        />
                      </InlineStack>
                      <TextField
                        label={t("boxText")}
                        value={b.text}
                        multiline={2}
                        autoComplete="off"
                        onChange={(v) => setBox({ text: v })}
                      />
                      <ImageDropZone
                        label={t("icon")}
                        value={b.icon}
                        error={errors[`${p}.boxTextBenifit.${i}.icon`]}
                        onChange={(v) => setBox({ icon: v })}
                      />
                    </BlockStack>
                  </Box>
                );
              })}
              <div>
                <Button
                  disabled={item.boxTextBenifit.length >= 6}
                  onClick={() =>
                    onChange({ ...item, boxTextBenifit: [...item.boxTextBenifit, { icon: "", title: "", text: "" }] })
                  }
                >
                  {t("addBox")}
                </Button>
              </div>
            </BlockStack>
          ) : null}
        </FormLayout>
      </BlockStack>
    </Card>
  );
}

function newField(): SignupField {
  return {
    id: `f${Date.now().toString(36)}`,
    label: "",
    labels: {},
    type: "text",
    options: [],
    required: false,
  };
}

function FieldEditor({
  field,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  field: SignupField;
  index: number;
  count: number;
  errors: Errors;
  onChange: (f: SignupField) => void;
  onMove: (d: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("Portal.schema.label");
  const p = `form.questions.${index}`;
  const others = PORTAL_LANGUAGES.filter((l) => l.code !== "en");
  const translated = Object.keys(field.labels);
  return (
    <Box padding="300" borderColor="border" borderWidth="025" borderRadius="200">
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {t("fieldN", { n: index + 1 })}
          </Text>
          <ButtonGroup variant="segmented">
            <Button icon={ArrowUpIcon} accessibilityLabel={t("up")} disabled={index === 0} onClick={() => onMove(-1)} />
            <Button
              icon={ArrowDownIcon}
              accessibilityLabel={t("down")}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            />
            <Button icon={DeleteIcon} accessibilityLabel={t("remove")} onClick={onRemove} />
          </ButtonGroup>
        </InlineStack>
        <FormLayout>
          <FormLayout.Group>
            <TextField
              label={t("fieldLabel")}
              value={field.label}
              autoComplete="off"
              error={errors[`${p}.label`]}
              onChange={(v) => onChange({ ...field, label: v })}
            />
            <Select
              label={t("fieldType")}
              value={field.type}
              options={SIGNUP_FIELD_TYPES.map((v) => ({ value: v, label: t(`fieldTypes.${v}`) }))}
              onChange={(v) => onChange({ ...field, type: v as SignupField["type"] })}
            />
          </FormLayout.Group>
          {field.type === "select" ? (
            <TextField
              label={t("fieldOptions")}
              helpText={t("fieldOptionsHelp", { max: MAX_FIELD_OPTIONS })}
              value={field.options.join("\n")}
              multiline={3}
              autoComplete="off"
              error={errors[`${p}.options`]}
              onChange={(v) => onChange({ ...field, options: v.split("\n").slice(0, MAX_FIELD_OPTIONS) })}
            />
          ) : null}
          <Checkbox
            label={t("required")}
            checked={field.required}
            onChange={(v) => onChange({ ...field, required: v })}
          />
          {translated.map((code) => (
            <InlineStack key={code} gap="200" blockAlign="end" wrap={false}>
              <div style={{ flex: 1 }}>
                <TextField
                  label={t("labelIn", { language: PORTAL_LANGUAGES.find((l) => l.code === code)?.name ?? code })}
                  value={field.labels[code] ?? ""}
                  autoComplete="off"
                  onChange={(v) => onChange({ ...field, labels: { ...field.labels, [code]: v } })}
                />
              </div>
              <Button
                icon={DeleteIcon}
                accessibilityLabel={t("remove")}
                onClick={() => {
                  const { [code]: _gone, ...rest } = field.labels;
                  onChange({ ...field, labels: rest });
                }}
              />
            </InlineStack>
          ))}
          <Select
            label={t("addTranslation")}
            value=""
            options={[
              { label: t("chooseLanguage"), value: "" },
              ...others.filter((l) => !translated.includes(l.code)).map((l) => ({ label: l.name, value: l.code })),
            ]}
            onChange={(code) => code && onChange({ ...field, labels: { ...field.labels, [code]: "" } })}
          />
        </FormLayout>
      </BlockStack>
    </Box>
  );
}

export function SignupFormEditor({
  content,
  errors,
  onChange,
}: {
  content: PortalPageContent;
  errors: Errors;
  onChange: Set;
}) {
  const { t } = useTranslation("Portal.schema.label");
  const form = content.form;
  const set = (f: Partial<PortalPageContent["form"]>) => onChange({ ...content, form: { ...form, ...f } });
  const modes = ["off", "optional", "required"].map((m) => ({ value: m, label: t(`modes.${m}`) }));
  const fields = form.questions;
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {t("formTitle")}
        </Text>
        <FormLayout>
          <FormLayout.Group>
            <Select
              label={t("paypalEmail")}
              options={modes}
              value={form.paypalEmail}
              onChange={(v) => set({ paypalEmail: v as FieldMode })}
            />
            <Select
              label={t("website")}
              options={modes}
              value={form.website}
              onChange={(v) => set({ website: v as FieldMode })}
            />
            <Select
              label={t("social")}
              options={modes}
              value={form.social}
              onChange={(v) => set({ social: v as FieldMode })}
            />
          </FormLayout.Group>
          <TextField
            label={t("termsUrl")}
            helpText={t("termsUrlHelp")}
            value={form.termsUrl}
            autoComplete="off"
            error={errors["form.termsUrl"]}
            onChange={(v) => set({ termsUrl: v })}
          />
        </FormLayout>
        <Divider />
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            {t("customFields")}
          </Text>
          <Text as="p" tone="subdued">
            {t("customFieldsHelp")}
          </Text>
          {fields.map((f, i) => (
            <FieldEditor
              key={f.id}
              field={f}
              index={i}
              count={fields.length}
              errors={errors}
              onChange={(next) => set({ questions: fields.map((x, j) => (j === i ? next : x)) })}
              onMove={(d) => {
                const next = [...fields];
                [next[i], next[i + d]] = [next[i + d]!, next[i]!];
                set({ questions: next });
              }}
              onRemove={() => set({ questions: fields.filter((_, j) => j !== i) })}
            />
          ))}
          <div>
            <Button disabled={fields.length >= 10} onClick={() => set({ questions: [...fields, newField()] })}>
              {t("addField")}
            </Button>
          </div>
        </BlockStack>
      </BlockStack>
    </Card>
  );
}

export function PageSettingsEditor({
  content,
  errors,
  onChange,
}: {
  content: PortalPageContent;
  errors: Errors;
  onChange: Set;
}) {
  const { t } = useTranslation("Portal.schema.label");
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("pageSettings")}
        </Text>
        <TextField
          label={t("pageTitle")}
          value={content.title}
          autoComplete="off"
          onChange={(v) => onChange({ ...content, title: v })}
        />
        <LinksEditor
          label={t("topBarLinks")}
          links={content.topBar.links}
          path="topBar.links"
          errors={errors}
          onChange={(links) => onChange({ ...content, topBar: { links } })}
        />
        <Checkbox
          label={t("leftBarEnabled")}
          checked={content.leftBar.enabled}
          onChange={(v) => onChange({ ...content, leftBar: { ...content.leftBar, enabled: v } })}
        />
        {content.leftBar.enabled ? (
          <LinksEditor
            label={t("leftBarLinks")}
            links={content.leftBar.links}
            path="leftBar.links"
            errors={errors}
            onChange={(links) => onChange({ ...content, leftBar: { ...content.leftBar, links } })}
          />
        ) : null}
      </BlockStack>
    </Card>
  );
}

/** The editor's device switch: the preview at a desktop width or a phone's 390 px. */
export type PreviewWidth = "desktop" | "mobile";
export const PREVIEW_WIDTHS: Record<PreviewWidth, number> = { desktop: 1200, mobile: 390 };
