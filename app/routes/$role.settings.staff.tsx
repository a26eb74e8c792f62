import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/RouteErrorBoundary";
import { StaffView } from "~/components/staff/StaffView";
import { AppError } from "~/lib/errors";
import { handleApi, parseFormData } from "~/lib/http.server";
import { requireMerchant } from "~/models/auth/require-merchant.server";
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
export const handle = { i18n: ["Settings", "Global"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "staff" });
  return json({ staff: await listStaff(ctx.shop.id) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireMerchant(request, params.role, { area: "staff" });
  return handleApi(async () => {
    const form = await request.formData().catch(() => {
      throw new AppError("bad_request", "The form could not be read.");
    });
    const intent = form.get("intent");
    const shopId = ctx.shop.id;
    switch (intent) {
      case "invite":
        return json({ intent, ...(await inviteStaff(shopId, parseFormData(form, staffInviteSchema))) });
      case "update":
        return json({ intent, ...(await updateStaff(shopId, parseFormData(form, staffUpdateSchema))) });
      case "renew":
        return json({ intent, ...(await renewInvite(shopId, parseFormData(form, staffIdSchema).id)) });
      case "disable":
      case "enable":
        return json({
          intent,
          ...(await setStaffEnabled(shopId, parseFormData(form, staffIdSchema).id, intent === "enable")),
        });
      case "remove":
        return json({ intent, ...(await removeStaff(shopId, parseFormData(form, staffIdSchema).id)) });
      default:
        throw new AppError("bad_request", "Unknown action.");
    }
  });
}

export default function StaffSettings() {
  const { staff } = useLoaderData<typeof loader>();
  return <StaffView staff={staff} />;
}

export { RouteErrorBoundary as ErrorBoundary };
