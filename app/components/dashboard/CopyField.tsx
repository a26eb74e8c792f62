import { Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API (an iframe without permission, plain http): the
    // selection-based copy still works in every browser.
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** A read-only link with a copy button that says when it copied. */
export function CopyField({ label, value, id }: { label: string; value: string; id: string }) {
  const { t } = useTranslation("Dashboard");
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <TextField
      label={label}
      id={id}
      value={value}
      readOnly
      autoComplete="off"
      onFocus={(event) => (event?.target as HTMLInputElement | undefined)?.select()}
      connectedRight={
        <InlineStack gap="200" blockAlign="center">
          <Button
            onClick={() => void copyText(value).then(setCopied)}
            accessibilityLabel={t("links.copyLabel", { label })}
          >
            {t("links.copy")}
          </Button>
          {copied !== null && (
            <Text as="span" tone={copied ? "success" : "critical"}>
              {copied ? t("links.copied") : t("links.copyFailed")}
            </Text>
          )}
        </InlineStack>
      }
    />
  );
}
