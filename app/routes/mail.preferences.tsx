import { Form, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { publicRoute } from "~/door/public-route.server";
import { unsubscribe, unsubscribeState } from "~/models/notifications/mail-opt-out.server";

// The unsubscribe link of a notification e-mail (List-Unsubscribe). A mail
// client's RFC 8058 one-click POST ("List-Unsubscribe=One-Click") and the
// button on this page both opt the address out of that kind of e-mail.
export const handle = { i18n: ["Account.Common"] };

const query = z.object({
  s: z.string().min(1).max(200),
  a: z.string().min(3).max(254),
  t: z.string().min(20).max(100),
  k: z.string().max(100).nullable().catch(null),
});

export const loader = /* @__PURE__ */ publicRoute({ query }, async ({ query }) => unsubscribeState(query));

export const action = /* @__PURE__ */ publicRoute({ query }, async ({ query }) => unsubscribe(query));

export default function MailPreferences() {
  const { t } = useTranslation("Account.Common");
  const state = useLoaderData<typeof loader>();
  return (
    <div className="app-login">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {t("notify.unsubscribe")}
          </Text>
          {state.unsubscribed ? (
            <Text as="p" tone="success" fontWeight="semibold">
              {t("saved")}
            </Text>
          ) : state.kind ? (
            <Form method="post">
              <Button submit variant="primary">
                {t("notify.unsubscribe")}
              </Button>
            </Form>
          ) : null}
        </BlockStack>
      </Card>
    </div>
  );
}
