import { useLoaderData } from "@remix-run/react";
import { EmailView } from "~/components/mails/EmailView";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { idParams } from "~/door/params";
import { outboxEmail } from "~/models/notifications/notification-admin.server";
import type { RouteHandle } from "~/i18n/route-handle";

// One e-mail of the outbox as sent (or kept, without SMTP_URL): the in-app viewer.
export const handle: RouteHandle = { i18n: ["Mails", "Global"], title: "Mails:log.detailTitle" };

const params = idParams("e-mail");

export const loader = /* @__PURE__ */ merchantRoute({ area: "mails", params }, async ({ db, params }) => ({
  email: await outboxEmail(db, params.id),
}));

export default function EmailPage() {
  const { email } = useLoaderData<typeof loader>();
  return <EmailView email={email} />;
}

export { RouteErrorBoundary as ErrorBoundary };
