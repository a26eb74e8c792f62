import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { TemplateEditor } from "~/components/mails/TemplateEditor";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import {
  deliveryLog,
  notificationEditor,
  previewTemplate,
  resetTemplate,
  saveTemplate,
  sendTestEmail,
} from "~/models/notifications/notification-admin.server";
import { templateSchema } from "~/models/notifications/notification-schemas";

// One notification's editor: subject and body in Liquid with the variables
// it offers, live preview, "send a test to me", reset, and its own log.
export const handle: RouteHandle = {
  i18n: ["Mails", "Global"],
  title: ({ params, data }) => (data ? `Mails:names.${(params.key ?? "").replace(".", "_")}` : null),
};

const params = z.object({ key: z.string({ required_error: "No notification with this name." }).max(100) });

export const loader = /* @__PURE__ */ merchantRoute({ area: "mails", params }, async ({ db, params }) => ({
  editor: await notificationEditor(db, params.key),
  log: await deliveryLog(db, 1, params.key),
}));

const text = templateSchema.omit({ enabled: true });
const actionSchema = z.discriminatedUnion("intent", [
  templateSchema.extend({ intent: z.literal("save") }),
  text.extend({ intent: z.literal("preview") }),
  text.extend({ intent: z.literal("test") }),
  z.object({ intent: z.literal("reset") }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "mails", params, body: actionSchema },
  async ({ db, params, body, user }) => {
    switch (body.intent) {
      case "save":
        return { intent: body.intent, ...(await saveTemplate(db, params.key, body)) };
      case "preview":
        return { intent: body.intent, ...(await previewTemplate(db, params.key, body)) };
      case "test":
        return { intent: body.intent, ...(await sendTestEmail(db, params.key, body, user.email)) };
      case "reset":
        return { intent: body.intent, ...(await resetTemplate(db, params.key)) };
    }
  },
);

export default function NotificationEditorPage() {
  const data = useLoaderData<typeof loader>();
  return <TemplateEditor key={data.editor.key} {...data} />;
}

export { RouteErrorBoundary as ErrorBoundary };
