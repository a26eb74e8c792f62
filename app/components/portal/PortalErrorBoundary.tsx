import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PortalMessage } from "./PortalLayout";

/** Errors of portal and account pages: a plain message, no admin links. */
export function PortalErrorBoundary({ inLayout = false }: { inLayout?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation("Account.Common");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const bad = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500;
  return (
    <PortalMessage
      inLayout={inLayout}
      title={notFound ? t("errors.notFoundTitle") : bad ? t("errors.badRequestTitle") : t("errors.genericTitle")}
      text={notFound ? t("errors.notFound") : bad ? t("errors.badRequest") : t("errors.generic")}
    />
  );
}

/** Errors of a page inside the account layout, which already has the page's <main>. */
export function AccountPageErrorBoundary() {
  return <PortalErrorBoundary inLayout />;
}
