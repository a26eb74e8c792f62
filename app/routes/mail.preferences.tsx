import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, Card, Checkbox, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { preferencesState, savePreferences, unsubscribe } from "~/models/notifications/mail-opt-out.server";
import type { RouteHandle } from "~/i18n/route-handle";

// The unsubscribe link of a notification e-mail (List-Unsubscribe) and the
// recipient's preference page. A mail client's RFC 8058 one-click POST
// ("List-Unsubscribe=One-Click") and the page's quick button opt the address
// out of the e-mail's kind; the form below chooses every kind at once
// (transactional ones are listed as always sent).
export const handle: RouteHandle = { i18n: ["Account.Common", "Mails"], title: "Account.Common:prefs.title" };

const query = z.object({
  s: z.string().min(1).max(200),
  a: z.string().min(3).max(254),
  t: z.string().min(20).max(100),
  k: z.string().max(100).nullable().catch(null),
});

const body = z.object({
  intent: z.enum(["save", "unsubscribe"]).optional(),
  receive: z.array(z.string().max(100)).max(50).default([]),
});

export const loader = /* @__PURE__ */ publicRoute({ scheme: "page", query }, async ({ query }) =>
  preferencesState(query),
);

export const action = /* @__PURE__ */ publicRoute({ scheme: "page", query, body }, async ({ query, body }) => {
  if (body.intent === "save") return savePreferences(query, body.receive);
  // No intent: the mail client's one-click POST (or the quick button).
  return unsubscribe(query);
});

export default function MailPreferences() {
  const { t } = useTranslation(["Account.Common", "Mails"]);
  const state = useLoaderData<typeof loader>();
  const answer = useActionData<{ saved?: boolean; unsubscribed?: boolean }>();
  const busy = useNavigation().state !== "idle";
  const [receive, setReceive] = useState(() => new Set(state.kinds.filter((k) => k.receive).map((k) => k.key)));
  const label = (key: string, audience: string) =>
    audience === "affiliate"
      ? t(`Account.Common:prefs.kinds.${key.slice(key.indexOf(".") + 1)}`)
      : t(`Mails:names.${key.replace(".", "_")}`);
  const linkKind = state.kinds.find((k) => k.key === state.kind);
  return (
    <main className="app-login">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("Account.Common:prefs.title")}
          </Text>
          <Text as="p">{t("Account.Common:prefs.intro", { shop: state.shopName, email: state.address })}</Text>
          {answer?.saved ? (
            <Text as="p" tone="success" fontWeight="semibold">
              {t("Account.Common:saved")}
            </Text>
          ) : null}
          {linkKind && !state.unsubscribed ? (
            <Form method="post">
              <Button submit variant="primary" loading={busy}>
                {`${t("Account.Common:notify.unsubscribe")}: ${label(linkKind.key, linkKind.audience)}`}
              </Button>
            </Form>
          ) : null}
          {linkKind && state.unsubscribed ? (
            <Text as="p" tone="success" fontWeight="semibold">
              {`${t("Account.Common:prefs.unsubscribed")}: ${label(linkKind.key, linkKind.audience)}`}
            </Text>
          ) : null}
          <Form method="post">
            <input type="hidden" name="intent" value="save" />
            <BlockStack gap="200">
              {state.kinds.map((kind) =>
                kind.transactional ? (
                  <Checkbox
                    key={kind.key}
                    label={label(kind.key, kind.audience)}
                    helpText={t("Account.Common:prefs.alwaysSent")}
                    checked
                    disabled
                  />
                ) : (
                  <Checkbox
                    key={kind.key}
                    id={`receive-${kind.key}`}
                    name="receive"
                    value={kind.key}
                    label={label(kind.key, kind.audience)}
                    checked={receive.has(kind.key)}
                    onChange={(on) =>
                      setReceive((current) => {
                        const next = new Set(current);
                        if (on) next.add(kind.key);
                        else next.delete(kind.key);
                        return next;
                      })
                    }
                  />
                ),
              )}
              <div>
                <Button submit loading={busy}>
                  {t("Account.Common:prefs.save")}
                </Button>
              </div>
            </BlockStack>
          </Form>
        </BlockStack>
      </Card>
    </main>
  );
}
