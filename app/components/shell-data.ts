import { useRouteLoaderData } from "@remix-run/react";
import type { ChatConfig } from "~/lib/support-chat";
import type { Role, StaffArea } from "~/lib/areas";
import type { ShopRecord } from "~/models/shop/shop-record";

// What the admin shell's loader (routes/$role) hands every admin screen. Kept
// here, not in the route, so components can read it without importing a
// route module (layers point one way: routes use components, never back).
export interface ShellData {
  role: Role;
  mode: "embedded" | "standalone";
  host: string | null;
  shop: ShopRecord;
  /** The menu follows from role and permissions (lib/menu.ts), on each side: not sent. */
  user: { name: string; email: string; role: Role; permissions: StaffArea[] };
  supportEmail: string;
  productName: string;
  /** The live-chat widget set up by the environment, if any. */
  chat: ChatConfig | null;
}

/** The admin shell's data; only inside the `/{role}` layout. */
export function useShell(): ShellData {
  const data = useRouteLoaderData<ShellData>("routes/$role");
  if (!data) throw new Error("useShell outside the admin shell");
  return data;
}
