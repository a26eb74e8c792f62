import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { NotificationsView } from "~/components/mails/NotificationsView";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { getConfig } from "~/config.server";
import { AppError } from "~/lib/errors";
import { merchantRoute } from "~/door/merchant-route.server";
import {
  deliveryLog,
  listNotifications,
  saveDigestMode,
  saveMailSettings,
  setNotificationEnabled,
} from "~/models/notifications/notification-admin.server";
import { digestSchema, mailSettingsSchema, myMailSchema } from "~/models/notifications/notification-schemas";
import { MERCHANT_KINDS, myMailKinds, saveMyMailKinds } from "~/models/notifications/merchant-recipients.server";

// Notifications (spec §2: /{role}/mails): every e-mail with on/off, the
// delivery log (also the in-app outbox when SMTP_URL is unset), the sender
// name / reply-to, and "Digest and my e-mails": the shop's digest
// (daily/weekly/off) and which merchant e-mails the signed-in user gets.
export const handle: RouteHandle = { i18n: ["Mails", "Global"], title: "Mails:title" };

const query = z.object({
  tab: z.enum(["emails", "log", "sender", "mine"]).catch("emails"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export const loader = /* @__PURE__ */ merchantRoute({ area: "mails", query }, async ({ db, query, user }) => {
  return {
    tab: query.tab,
    ...(await listNotifications(db)),
    log: await deliveryLog(db, query.page),
    smtpConfigured: Boolean(getConfig().SMTP_URL),
    merchantKinds: MERCHANT_KINDS,
    // An embedded admin without a user of their own gets the store's address; nothing to choose.
    me: user.id ? { email: user.email, kinds: await myMailKinds(db, user.id) } : null,
  };
});

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("toggle"), key: z.string().max(100), enabled: z.enum(["true", "false"]) }),
  mailSettingsSchema.extend({ intent: z.literal("sender") }),
  digestSchema.extend({ intent: z.literal("digest") }),
  myMailSchema.extend({ intent: z.literal("mine") }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "mails", body: actionSchema },
  async ({ db, body, user }) => {
    switch (body.intent) {
      case "toggle":
        return { intent: body.intent, ...(await setNotificationEnabled(db, body.key, body.enabled === "true")) };
      case "digest":
        return { intent: body.intent, ...(await saveDigestMode(db, body.digest)) };
      case "mine":
        if (!user.id) throw new AppError("bad_request", "Log in with your own user to choose your e-mails.");
        return { intent: body.intent, ...(await saveMyMailKinds(db, user.id, body.kinds)) };
      case "sender":
        return { intent: body.intent, ...(await saveMailSettings(db, body)) };
    }
  },
);

export default function NotificationsPage() {
  const data = useLoaderData<typeof loader>();
  return <NotificationsView {...data} />;
}

export { RouteErrorBoundary as ErrorBoundary };
