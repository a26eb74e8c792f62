import { redirect } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Outlet,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { AdminShell } from "~/components/AdminShell";
import type { ShellData } from "~/components/shell-data";
import { GenericErrorScreen } from "~/components/GenericErrorScreen";
import { upgradeOf } from "~/components/UpgradeScreen";
import { ForbiddenScreen, NotFoundScreen } from "~/components/StatusScreens";
import { getConfig } from "~/config.server";
import type { RouteHandle } from "~/i18n/route-handle";
import { chatConfig } from "~/lib/support-chat";
import { SupportChat } from "~/components/SupportChat";
import { appTypeFor } from "~/lib/app-type";
import { menuFor, isMenuHidden } from "~/lib/menu";
import { merchantRoute } from "~/door/merchant-route.server";
import { keptParams } from "~/lib/embedded-params";
import { applyDefaultPlan } from "~/models/plans/activate-plan.server";
import { mustSelectPlan, toShopRecord } from "~/models/shop/shop-record";
import type { loader as rootLoader } from "~/root";

export const handle: RouteHandle = {
  i18n: ["Global", "TopMenu"],
  // The door's upgrade prompt (a page's error boundary, any page) speaks Plans;
  // every other document of the admin goes without it.
  i18nShown: ({ errors }) => (errors.some((error) => upgradeOf(error)) ? ["Plans"] : []),
};

export const loader = /* @__PURE__ */ merchantRoute({ area: "any" }, async (ctx) => {
  const shop = toShopRecord(ctx.shop);
  const url = new URL(ctx.request.url);
  const below = url.pathname.split("/").slice(2).join("/");
  // Plan gating: while a plan must still be chosen, every page leads there.
  // The operator's default plan spares standalone shops the choice (no charge there).
  if (mustSelectPlan(shop)) {
    const plan = await applyDefaultPlan(ctx.db, ctx.mode);
    if (plan) shop.pricing = { plan };
  }
  if (mustSelectPlan(shop) && !below.startsWith("plans")) {
    throw redirect(`/${ctx.role}/plans?${keptParams(url, { installing: "1" })}`);
  }
  const config = getConfig();
  const data: ShellData = {
    role: ctx.role,
    mode: ctx.mode,
    host: ctx.host,
    shop,
    user: { name: ctx.user.name, email: ctx.user.email, role: ctx.user.role, permissions: ctx.user.permissions },
    supportEmail: config.SUPPORT_EMAIL,
    productName: config.APP_NAME,
    chat: chatConfig({
      provider: config.SUPPORT_CHAT_PROVIDER,
      siteId: config.SUPPORT_CHAT_ID,
      scriptUrl: config.SUPPORT_CHAT_SCRIPT_URL,
    }),
  };
  return data;
});

export { useShell, type ShellData } from "~/components/shell-data";

export default function RoleLayout() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const menuHidden = isMenuHidden({
    pathname: location.pathname,
    role: data.role,
    hasPricing: data.shop.pricing !== undefined,
    needSelectPlan: data.shop.pricing?.needSelectPlan,
  });
  return (
    <AdminShell
      role={data.role}
      mode={data.mode}
      menu={menuFor(data.user.role, data.user.permissions)}
      menuHidden={menuHidden}
      shopName={data.shop.name}
      userName={data.user.name}
      userEmail={data.user.email}
    >
      <div data-app-type={appTypeFor(location.pathname)}>
        <Outlet />
      </div>
      {data.chat ? <SupportChat chat={data.chat} shop={data.shop} /> : null}
    </AdminShell>
  );
}

// The shop could not be loaded (or the role may not be here): no shell (so
// no Frame and its <main>) around these screens. 403/404 get
// their own screens; anything else is surfaced as the generic error screen.
export function ErrorBoundary() {
  return (
    <main>
      <RoleError />
    </main>
  );
}

function RoleError() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const location = useLocation();
  const role = location.pathname.startsWith("/staff") ? "staff" : "admin";
  if (isRouteErrorResponse(error) && error.status === 403) {
    // The server says where this user's dashboard is (a staff user who
    // opened an /admin/ URL belongs on /staff/dashboard).
    const home = (error.data as { home?: string | null } | null)?.home;
    return <ForbiddenScreen dashboardUrl={home ?? `/${role}/dashboard`} />;
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen dashboardUrl="/login" />;
  // A client's mistake (405, 400) is not worth a log line; anything else is.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  const params = new URLSearchParams(location.search);
  return (
    <GenericErrorScreen
      context={{
        role,
        host: params.get("host"),
        shopUrl: params.get("shop"),
        supportEmail: root?.supportEmail ?? "support@example.com",
        productName: root?.productName ?? "Affiliate & Referral",
      }}
    />
  );
}
