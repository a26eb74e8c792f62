import { BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { FieldMode, PortalItem, PortalPageContent, PortalPageKind } from "~/lib/portal-content";

// The Portals editor's form: page title, top and left bar links, content
// items (elements, images, link, benefit boxes, icon) and, on the sign-up
// page, the form's fields. Errors come keyed by path ("items.0.image").

type Errors = Record<string, string>;
type Set = (next: PortalPageContent) => void;

const ITEM_TYPES = ["hero", "text", "image", "benefits", "button"] as const;

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
          <Button onClick={() => onChange(links.filter((_, j) => j !== i))}>{t("remove")}</Button>
        </InlineStack>
      ))}
      <div>
        <Button onClick={() => onChange([...links, { label: "", url: "" }])}>{t("addLink")}</Button>
      </div>
    </BlockStack>
  );
}

function ItemEditor({
  item,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  item: PortalItem;
  index: number;
  count: number;
  errors: Errors;
  onChange: (i: PortalItem) => void;
  onMove: (d: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("Portal.schema.label");
  const p = `items.${index}`;
  const url = (key: "image" | "image_1" | "image_2" | "icon") => (
    <TextField
      label={t(key)}
      value={item[key]}
      autoComplete="off"
      error={errors[`${p}.${key}`]}
      onChange={(v) => onChange({ ...item, [key]: v })}
      placeholder="https://... or /portal-assets/..."
    />
  );
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between">
          <Select
            label={t("type")}
            value={item.type}
            options={ITEM_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))}
            onChange={(v) => onChange({ ...item, type: v as PortalItem["type"] })}
          />
          <InlineStack gap="200">
            <Button disabled={index === 0} onClick={() => onMove(-1)}>
              {t("up")}
            </Button>
            <Button disabled={index === count - 1} onClick={() => onMove(1)}>
              {t("down")}
            </Button>
            <Button tone="critical" onClick={onRemove}>
              {t("remove")}
            </Button>
          </InlineStack>
        </InlineStack>
        <FormLayout>
          <TextField
            label={t("heading")}
            value={item.elements.heading}
            autoComplete="off"
            onChange={(v) => onChange({ ...item, elements: { ...item.elements, heading: v } })}
          />
          <TextField
            label={t("elements")}
            value={item.elements.text}
            multiline={3}
            autoComplete="off"
            onChange={(v) => onChange({ ...item, elements: { ...item.elements, text: v } })}
          />
          <FormLayout.Group>
            {url("image")}
            {url("icon")}
          </FormLayout.Group>
          {item.type === "image" ? (
            <FormLayout.Group>
              {url("image_1")}
              {url("image_2")}
            </FormLayout.Group>
          ) : null}
          <FormLayout.Group>
            <TextField
              label={t("linkLabel")}
              value={item.link.label}
              autoComplete="off"
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
          {item.type === "benefits" ? (
            <BlockStack gap="200">
              {item.boxTextBenifit.map((b, i) => (
                <InlineStack key={i} gap="200" blockAlign="end" wrap={false}>
                  <TextField
                    label={t("boxTextBenifit")}
                    value={b.title}
                    autoComplete="off"
                    onChange={(v) =>
                      onChange({
                        ...item,
                        boxTextBenifit: item.boxTextBenifit.map((x, j) => (j === i ? { ...x, title: v } : x)),
                      })
                    }
                  />
                  <TextField
                    label={t("boxText")}
                    value={b.text}
                    autoComplete="off"
                    onChange={(v) =>
                      onChange({
                        ...item,
                        boxTextBenifit: item.boxTextBenifit.map((x, j) => (j === i ? { ...x, text: v } : x)),
                      })
                    }
                  />
                  <TextField
                    label={t("icon")}
                    value={b.icon}
                    autoComplete="off"
                    error={errors[`${p}.boxTextBenifit.${i}.icon`]}
                    onChange={(v) =>
                      onChange({
                        ...item,
                        boxTextBenifit: item.boxTextBenifit.map((x, j) => (j === i ? { ...x, icon: v } : x)),
                      })
                    }
                  />
                  <Button
                    onClick={() => onChange({ ...item, boxTextBenifit: item.boxTextBenifit.filter((_, j) => j !== i) })}
                  >
                    {t("remove")}
                  </Button>
                </InlineStack>
              ))}
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

function SignupFormEditor({
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
  return (
    <Card>
      <BlockStack gap="300">
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
            value={form.termsUrl}
            autoComplete="off"
            error={errors["form.termsUrl"]}
            onChange={(v) => set({ termsUrl: v })}
          />
          {form.questions.map((q, i) => (
            <InlineStack key={q.id} gap="200" blockAlign="end" wrap={false}>
              <TextField
                label={t("question")}
                value={q.label}
                autoComplete="off"
                onChange={(v) => set({ questions: form.questions.map((x, j) => (j === i ? { ...x, label: v } : x)) })}
              />
              <Checkbox
                label={t("required")}
                checked={q.required}
                onChange={(v) =>
                  set({ questions: form.questions.map((x, j) => (j === i ? { ...x, required: v } : x)) })
                }
              />
              <Button onClick={() => set({ questions: form.questions.filter((_, j) => j !== i) })}>
                {t("remove")}
              </Button>
            </InlineStack>
          ))}
          <div>
            <Button
              disabled={form.questions.length >= 10}
              onClick={() =>
                set({
                  questions: [...form.questions, { id: `q${Date.now().toString(36)}`, label: "", required: false }],
                })
              }
            >
              {t("addQuestion")}
            </Button>
          </div>
        </FormLayout>
      </BlockStack>
    </Card>
  );
}

export function PortalEditorForm({
  kind,
  content,
  errors,
  onChange,
}: {
  kind: PortalPageKind;
  content: PortalPageContent;
  errors: Errors;
  onChange: Set;
}) {
  const { t } = useTranslation("Portal.schema.label");
  const items = content.items;
  const setItems = (next: PortalItem[]) => onChange({ ...content, items: next });
  return (
    <BlockStack gap="400">
      <Card>
        <BlockStack gap="300">
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
      {kind === "signup" ? <SignupFormEditor content={content} errors={errors} onChange={onChange} /> : null}
      {items.map((item, i) => (
        <ItemEditor
          key={i}
          item={item}
          index={i}
          count={items.length}
          errors={errors}
          onChange={(next) => setItems(items.map((x, j) => (j === i ? next : x)))}
          onMove={(d) => {
            const next = [...items];
            [next[i], next[i + d]] = [next[i + d]!, next[i]!];
            setItems(next);
          }}
          onRemove={() => setItems(items.filter((_, j) => j !== i))}
        />
      ))}
      <InlineStack gap="200">
        {ITEM_TYPES.map((type) => (
          <Button key={type} disabled={items.length >= 30} onClick={() => setItems([...items, newItem(type)])}>
            {t("add", { type: t(`types.${type}`) })}
          </Button>
        ))}
      </InlineStack>
    </BlockStack>
  );
}
