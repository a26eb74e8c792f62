import type { RouteHandle } from "~/i18n/route-handle";
import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { StaffView } from "~/components/staff/StaffView";
import { z } from "zod";
import { merchantRoute } from "~/door/merchant-route.server";
import { staffIdSchema, staffInviteSchema, staffUpdateSchema } from "~/models/staff/staff-schemas";
import {
  inviteStaff,
  listStaff,
  removeStaff,
  renewInvite,
  setStaffEnabled,
  updateStaff,
} from "~/models/staff/staff.server";

// Settings > Staff (admin only: the "staff" area is closed to staff users,
// so staff can never invite, promote or disable anyone).
export const handle: RouteHandle = { i18n: ["Settings", "Global"], title: "Settings:tabs.staff" };

export const loader = /* @__PURE__ */ merchantRoute({ area: "staff" }, async ({ db }) => ({
  staff: await listStaff(db),
}));

const actionSchema = z.discriminatedUnion("intent", [
  staffInviteSchema.extend({ intent: z.literal("invite") }),
  staffUpdateSchema.extend({ intent: z.literal("update") }),
  staffIdSchema.extend({ intent: z.enum(["renew", "disable", "enable", "remove"]) }),
]);

export const action = /* @__PURE__ */ merchantRoute({ area: "staff", body: actionSchema }, async ({ db, body }) => {
  switch (body.intent) {
    case "invite":
      return { intent: body.intent, ...(await inviteStaff(db, body)) };
    case "update":
      return { intent: body.intent, ...(await updateStaff(db, body)) };
    case "renew":
      return { intent: body.intent, ...(await renewInvite(db, body.id)) };
    case "disable":
    case "enable":
      return { intent: body.intent, ...(await setStaffEnabled(db, body.id, body.intent === "enable")) };
    case "remove":
      return { intent: body.intent, ...(await removeStaff(db, body.id)) };
  }
});

export default function StaffSettings() {
  const { staff } = useLoaderData<typeof loader>();
  return <StaffView staff={staff} />;
}

export { RouteErrorBoundary as ErrorBoundary };
