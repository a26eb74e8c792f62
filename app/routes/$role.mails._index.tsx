import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { NotificationsView } from "~/components/mails/NotificationsView";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { getConfig } from "~/config.server";
import { merchantRoute } from "~/door/merchant-route.server";
import {
  deliveryLog,
  listNotifications,
  saveMailSettings,
  setNotificationEnabled,
} from "~/models/notifications/notification-admin.server";
import { mailSettingsSchema } from "~/models/notifications/notification-schemas";

// Notifications (spec §2: /{role}/mails): every e-mail with on/off, the
// delivery log (also the in-app outbox when SMTP_URL is unset) and the
// sender name / reply-to.
export const handle = { i18n: ["Mails", "Global"] };

const query = z.object({
  tab: z.enum(["emails", "log", "sender"]).catch("emails"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "mails", query }, async ({ db, query }) => ({
  tab: query.tab,
  ...(await listNotifications(db)),
  log: await deliveryLog(db, query.page),
  smtpConfigured: Boolean(getConfig().SMTP_URL),
}));

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("toggle"), key: z.string().max(100), enabled: z.enum(["true", "false"]) }),
  mailSettingsSchema.extend({ intent: z.literal("sender") }),
]);

export const action = /* @__PURE__ */ merchantRoute({ area: "mails", body: actionSchema }, async ({ db, body }) => {
  if (body.intent === "toggle")
    return { intent: body.intent, ...(await setNotificationEnabled(db, body.key, body.enabled === "true")) };
  return { intent: body.intent, ...(await saveMailSettings(db, body)) };
});

export default function NotificationsPage() {
  const data = useLoaderData<typeof loader>();
  return <NotificationsView {...data} />;
}

export { RouteErrorBoundary as ErrorBoundary };
