import { useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { Frame, Navigation, TopBar } from "@shopify/polaris";
import { useCallback, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { MenuItem } from "../lib/menu";
import { FullScreenSpinner } from "./FullScreenSpinner";

export interface ShellProps {
  role: "admin" | "staff";
  mode: "embedded" | "standalone";
  menu: MenuItem[];
  menuHidden: boolean;
  shopName: string;
  userName: string;
  userEmail: string;
  children: ReactNode;
}

function useRouteChanging() {
  const navigation = useNavigation();
  const location = useLocation();
  // Only a move to another page shows the full-screen spinner; a form
  // submission or a revalidation of the same page does not.
  return navigation.state === "loading" && navigation.location.pathname !== location.pathname;
}

export function AdminShell(props: ShellProps) {
  const { t } = useTranslation("TopMenu");
  const location = useLocation();
  const changing = useRouteChanging();
  const submit = useSubmit();
  const [userMenuOpen, setUserMenuOpen] = useState(false);
  const [mobileNavOpen, setMobileNavOpen] = useState(false);
  const toggleUserMenu = useCallback(() => setUserMenuOpen((v) => !v), []);
  const toggleMobileNav = useCallback(() => setMobileNavOpen((v) => !v), []);
  const base = `/${props.role}`;

  if (props.mode === "embedded") {
    // Inside the Shopify admin, the menu is Shopify's own side navigation.
    return (
      <>
        {!props.menuHidden && (
          <NavMenu>
            <a href={`${base}/dashboard`} rel="home">
              {t("dashboard")}
            </a>
            {props.menu.map((item) => (
              <a key={item.key} href={`${base}/${item.path}`}>
                {t(item.key)}
              </a>
            ))}
          </NavMenu>
        )}
        <Frame>
          {changing ? <FullScreenSpinner /> : null}
          {props.children}
        </Frame>
      </>
    );
  }

  const navigation = props.menuHidden ? undefined : (
    <Navigation location={location.pathname} ariaLabelledBy="app-nav-label" onDismiss={() => setMobileNavOpen(false)}>
      <Navigation.Section
        items={[
          { label: t("dashboard"), url: `${base}/dashboard`, exactMatch: true },
          ...props.menu.map((item) => ({
            label: t(item.key),
            url: `${base}/${item.path}`,
            matches:
              location.pathname === `${base}/${item.path}` || location.pathname.startsWith(`${base}/${item.path}/`),
          })),
        ]}
      />
    </Navigation>
  );

  const topBar = (
    <TopBar
      showNavigationToggle={!props.menuHidden}
      onNavigationToggle={toggleMobileNav}
      userMenu={
        <TopBar.UserMenu
          name={props.userName}
          detail={props.shopName}
          initials={props.userName.slice(0, 1).toUpperCase()}
          open={userMenuOpen}
          onToggle={toggleUserMenu}
          actions={[
            {
              items: [
                {
                  content: t("logout"),
                  onAction: () => submit({ role: props.role }, { method: "post", action: "/logout" }),
                },
              ],
            },
          ]}
        />
      }
    />
  );

  return (
    <Frame
      topBar={topBar}
      navigation={navigation}
      showMobileNavigation={mobileNavOpen}
      onNavigationDismiss={toggleMobileNav}
    >
      {changing ? <FullScreenSpinner /> : null}
      {props.children}
    </Frame>
  );
}
