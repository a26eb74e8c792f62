import { useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { NotBuiltYet } from "./StatusScreens";

/**
 * A screen whose content belongs to a later issue: its translated title and
 * a plain "not built yet" notice. `back` is the list a detail page returns to.
 */
export function placeholderPage(ns: string, opts: { titleKey?: string; back?: string } = {}) {
  return function PlaceholderPage() {
    const { t } = useTranslation(ns);
    const { role } = useParams();
    return (
      <NotBuiltYet title={t(opts.titleKey ?? "title")} backUrl={opts.back ? `/${role}/${opts.back}` : undefined} />
    );
  };
}
