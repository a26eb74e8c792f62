import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PortalMessage } from "./PortalLayout";

/** Errors of portal and account pages: a plain message, no admin links. */
export function PortalErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("Account.Common");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const bad = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500;
  return (
    <PortalMessage
      title={notFound ? t("errors.notFoundTitle") : bad ? t("errors.badRequestTitle") : t("errors.genericTitle")}
      text={notFound ? t("errors.notFound") : bad ? t("errors.badRequest") : t("errors.generic")}
    />
  );
}
