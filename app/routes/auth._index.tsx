import { useLoaderData, useNavigate } from "@remix-run/react";
import { Spinner, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { GenericErrorScreen } from "~/components/GenericErrorScreen";
import { getConfig } from "~/config.server";
import { publicRoute } from "~/door/public-route.server";
import { apiGet, cacheShop, refetchShop } from "~/lib/api-client";
import { decideAuthStep } from "~/lib/auth-steps";
import type { RouteHandle } from "~/i18n/route-handle";

export const handle: RouteHandle = { i18n: ["Global"], title: "Global:auth.authorizing" };

// The launch parameters are read in the browser (app/lib/auth-steps.ts).
export const loader = /* @__PURE__ */ publicRoute({ scheme: "page" }, async () => {
  const config = getConfig();
  return { supportEmail: config.SUPPORT_EMAIL, productName: config.APP_NAME };
});

// The /auth screen: "Authorizing..." while it carries out the step the
// launch parameters call for (app/lib/auth-steps.ts).
export default function Authorizing() {
  const { t } = useTranslation("Global");
  const { supportEmail, productName } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const step = decideAuthStep(window.location.search, { inIframe: window.top !== window.self });
    const go = (to: string, topLevel?: boolean) => {
      if (topLevel) window.open(to, "_top");
      else if (to.startsWith("/api/")) window.location.assign(to);
      else navigate(to, { replace: true });
    };
    if (step.type === "refused") return setFailed(true);
    if (step.type === "navigate") return go(step.to, step.topLevel);
    void (async () => {
      const { status, data } = await apiGet(`/auth?${step.query}`).catch(() => ({ status: 0, data: null }));
      if (status !== 200) {
        if (step.onFailure === "error-screen") setFailed(true);
        else go(step.onFailure);
        return;
      }
      if (step.storeShop) cacheShop(data);
      const outcome = await refetchShop();
      if (outcome === "login") return go("/login");
      if (outcome === "surface") return setFailed(true);
      go(step.onSuccess);
    })();
  }, [navigate]);

  if (failed) {
    const params = new URLSearchParams(typeof window === "undefined" ? "" : window.location.search);
    return (
      <main>
        <GenericErrorScreen
          context={{ role: "admin", host: params.get("host"), shopUrl: params.get("shop"), supportEmail, productName }}
        />
      </main>
    );
  }
  return (
    <main className="app-auth-screen" data-testid="authorizing">
      <Spinner size="large" accessibilityLabel={t("auth.authorizing")} />
      <Text as="p" variant="headingMd">
        {t("auth.authorizing")}
      </Text>
    </main>
  );
}
