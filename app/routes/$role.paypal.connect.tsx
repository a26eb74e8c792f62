import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PaypalConnectView } from "~/components/paypal/PaypalConnectView";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { merchantRoute } from "~/door/merchant-route.server";
import { paypalConnectionSchema } from "~/models/paypal/paypal-connection-schema";
import { registerPaypalWebhook } from "~/models/paypal/register-paypal-webhook.server";
import {
  connectPaypal,
  disconnectPaypal,
  getPaypalConnection,
  paypalWebhookUrl,
} from "~/models/paypal/paypal-connection.server";

// /{role}/paypal/connect: the shop's PayPal REST app (admin only: the "paypal"
// area is closed to staff whatever their permissions).
export const handle: RouteHandle = {
  i18n: ["Settings.Payment", "Global"],
  title: "Settings.Payment:paypalConnectTitle",
};

export const loader = /* @__PURE__ */ merchantRoute(
  { area: "paypal", feature: "paypalPayouts" },
  async ({ db, shop }) => ({
    connection: await getPaypalConnection(db),
    webhookUrl: paypalWebhookUrl(shop.id),
  }),
);

const actionSchema = z.discriminatedUnion("intent", [
  paypalConnectionSchema.extend({ intent: z.literal("connect") }),
  z.object({ intent: z.literal("disconnect") }),
  // Subscribes the webhook URL in the merchant's PayPal app (register-paypal-webhook.server.ts).
  z.object({ intent: z.literal("register-webhook") }),
]);

export const action = /* @__PURE__ */ merchantRoute(
  { area: "paypal", feature: "paypalPayouts", body: actionSchema },
  async ({ db, body }) => {
    if (body.intent === "disconnect") return { intent: body.intent, connection: await disconnectPaypal(db) };
    if (body.intent === "register-webhook") {
      await registerPaypalWebhook(db, db.$shopId);
      return { intent: body.intent, connection: await getPaypalConnection(db) };
    }
    const { intent, ...input } = body;
    return { intent, connection: await connectPaypal(db, input) };
  },
);

export default function PaypalConnect() {
  const { connection, webhookUrl } = useLoaderData<typeof loader>();
  return <PaypalConnectView connection={connection} webhookUrl={webhookUrl} />;
}

export { RouteErrorBoundary as ErrorBoundary };
