import { BrandLogo, BrandStyle } from "~/components/portal/BrandStyle";
import { readBranding } from "~/models/settings/branding";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { Banner, Box, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { COPY_SCRIPT } from "~/components/portal/FormField";
import { useNonce } from "~/lib/nonce";
import { PortalErrorBoundary } from "~/components/portal/PortalErrorBoundary";
import { affiliateRoute } from "~/door/affiliate-route.server";
import { affiliateMethodView } from "~/models/payouts/affiliate-payout-choice.server";
import { paymentSettingsOf } from "~/models/payouts/payment-settings";

// The affiliate's account area (/account/...): the logged-in affiliate's own
// records only. The session names the affiliate and the shop.
// Only Account.* and Global: the account area is in every affiliate language.
export const handle = { i18n: ["Account.Common", "Account.Payouts"], portal: true };

export const ACCOUNT_NAV = [
  { key: "dashboard", path: "/account" },
  { key: "links", path: "/account/links" },
  { key: "products", path: "/account/products" },
  { key: "coupons", path: "/account/coupons" },
  { key: "creatives", path: "/account/creatives" },
  { key: "sales", path: "/account/sales" },
  { key: "payouts", path: "/account/payouts" },
  { key: "recruits", path: "/account/recruits" },
  { key: "guide", path: "/account/guide" },
  { key: "settings", path: "/account/settings" },
  { key: "contact", path: "/account/contact-us" },
] as const;

export const loader = /* @__PURE__ */ affiliateRoute({}, async ({ affiliate, shop, pagesBase, appUrl }) =>
  json(
    {
      affiliate: {
        firstName: affiliate.firstName,
        lastName: affiliate.lastName,
        email: affiliate.email,
        status: affiliate.status,
        referralCode: affiliate.referralCode,
      },
      shop: { name: shop.name, domain: shop.domain, timezone: shop.timezone },
      // How they are paid now: a reminder on every page while it is not their own choice.
      payoutChoice: affiliateMethodView(
        { payoutMethod: affiliate.payoutMethod, paypalEmail: affiliate.paypalEmail, payoutDetailsMask: null },
        paymentSettingsOf(shop.settings),
      ),
      branding: readBranding(shop.settings),
      pagesBase,
      appUrl,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  ),
);

export type AccountLayoutData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AccountLayout() {
  const data = useLoaderData<typeof loader>();
  const nonce = useNonce();
  const { t } = useTranslation("Account.Common");
  const { pathname } = useLocation();
  const currentNav =
    ACCOUNT_NAV.find((item) =>
      item.path === "/account" ? pathname === "/account" || pathname === "/account/" : pathname.startsWith(item.path),
    ) ?? ACCOUNT_NAV[0];
  return (
    // The portal's narrow layout is a container query on .portal-frame (app.css).
    <div className="portal-frame">
      <BrandStyle branding={data.branding} />
      <header className="portal-topbar">
        <span className="portal-brand">
          <BrandLogo branding={data.branding} alt={data.shop.name} />
          <span className="portal-brand-name" title={t("portal.programName", { shop: data.shop.name })}>
            <Text as="span" variant="headingMd">
              {t("portal.programName", { shop: data.shop.name })}
            </Text>
          </span>
        </span>
        <nav aria-label={t("portal.programName", { shop: data.shop.name })}>
          <span className="portal-user-name">
            <Text as="span" tone="subdued">
              {data.affiliate.firstName} {data.affiliate.lastName}
            </Text>
          </span>
          <form method="post" action="/account/logout">
            <button type="submit" className="Polaris-Button" data-testid="logout">
              {t("portal.logout")}
            </button>
          </form>
        </nav>
      </header>
      <div className="portal-body">
        <aside className="portal-leftbar portal-account-menu">
          {/* On a phone the menu folds behind a button naming the current
              page. These pages run no script: a checkbox and its label open it. */}
          <input type="checkbox" id="portal-menu-toggle" className="portal-menu-toggle" aria-controls="portal-menu" />
          <label htmlFor="portal-menu-toggle" className="portal-menu-button" data-testid="menu-button">
            <span aria-hidden="true" className="portal-menu-icon">
              ☰
            </span>
            {t(`nav.${currentNav.key}`)}
          </label>
          <nav aria-label={t("title")} id="portal-menu">
            <ul>
              {ACCOUNT_NAV.map((item) => (
                <li key={item.key}>
                  <a href={item.path} aria-current={item === currentNav ? "page" : undefined}>
                    {t(`nav.${item.key}`)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <main className="portal-main">
          {data.affiliate.status === "pending" ? (
            <Box paddingBlockEnd="400">
              <Banner tone="warning" title={t("pending.title")}>
                <p data-testid="pending-notice">{t("pending.text")}</p>
              </Banner>
            </Box>
          ) : null}
          {data.payoutChoice.source !== "choice" ? (
            <Box paddingBlockEnd="400">
              <Banner
                tone="warning"
                action={
                  pathname.startsWith("/account/payouts")
                    ? undefined
                    : { content: t("payoutChoice.action"), url: "/account/payouts#payout-method" }
                }
              >
                <p data-testid="payout-method-reminder">
                  {t(`payoutChoice.${data.payoutChoice.source === "not_offered" ? "not_offered" : "default"}`, {
                    method: t(`Account.Payouts:methods.${data.payoutChoice.method}`),
                    chosen: t(`Account.Payouts:methods.${data.payoutChoice.chosen}`),
                  })}
                </p>
              </Banner>
            </Box>
          ) : null}
          <Outlet />
        </main>
      </div>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />
    </div>
  );
}

export const ErrorBoundary = PortalErrorBoundary;
