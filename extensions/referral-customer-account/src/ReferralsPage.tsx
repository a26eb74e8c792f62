/** @jsxImportSource preact */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { Api } from "@shopify/ui-extensions/customer-account.page.render";
import { APP_URL } from "./app-url";
import { buildRequest, pageView, readAnswer, type ReferralsAnswer, type View } from "./referrals-logic";

// customer-account.page.render: a page of its own in the new customer
// accounts. It asks the app for the signed-in customer's referrals (GET) and
// shows them; the "get my link" button asks the app to make the link (POST).
// Every decision is in referrals-logic.ts.

export default async function extension() {
  const api = (globalThis as unknown as { shopify: Api }).shopify;
  render(<ReferralsPage api={api} />, document.body);
}

async function ask(api: Api, method: "GET" | "POST"): Promise<ReferralsAnswer> {
  const request = buildRequest(APP_URL, await api.sessionToken.get(), api.localization.language.value.isoCode, method);
  if (!request) return { status: "off" };
  const response = await fetch(request.url, request.init);
  const body: unknown = await response.json().catch(() => null);
  return readAnswer(response.status, body);
}

function ReferralsPage({ api }: { api: Api }) {
  const [answer, setAnswer] = useState<ReferralsAnswer | null>(null);
  const [joining, setJoining] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let stopped = false;
    void ask(api, "GET")
      .catch((): ReferralsAnswer => ({ status: "error" }))
      .then((got) => {
        if (!stopped) setAnswer(got);
      });
    return () => {
      stopped = true;
    };
  }, [api]);

  const join = () => {
    setJoining(true);
    void ask(api, "POST")
      .catch((): ReferralsAnswer => ({ status: "error" }))
      .then((got) => {
        setAnswer(got);
        setJoining(false);
      });
  };

  return (
    <PageView
      view={pageView(answer, (key, values) => api.i18n.translate(key, values))}
      joining={joining}
      copied={copied}
      onJoin={join}
      onCopy={() => setCopied(true)}
    />
  );
}

function PageView(props: { view: View; joining: boolean; copied: boolean; onJoin: () => void; onCopy: () => void }) {
  const { view } = props;
  if (view.kind === "message")
    return (
      <s-page heading={view.heading}>
        {view.tone === "loading" ? (
          <s-stack direction="inline" gap="base">
            <s-spinner accessibilityLabel={view.message} />
            <s-text>{view.message}</s-text>
          </s-stack>
        ) : (
          <s-banner tone={view.tone}>{view.message}</s-banner>
        )}
      </s-page>
    );
  return (
    <s-page heading={view.heading}>
      <s-stack gap="large">
        <s-section heading={view.title}>
          <s-stack gap="base">
            {view.offer ? <s-paragraph>{view.offer}</s-paragraph> : null}
            {view.link ? (
              <s-stack gap="base">
                <s-text-field label={view.link.label} value={view.link.url} readOnly />
                <s-clipboard-item id="referral-share-link" text={view.link.url} onCopy={props.onCopy} />
                <s-button variant="primary" command="--copy" commandFor="referral-share-link">
                  {props.copied ? view.link.copied : view.link.copy}
                </s-button>
                {view.link.code ? <s-text>{view.link.code}</s-text> : null}
              </s-stack>
            ) : null}
            {view.join ? (
              <s-stack gap="base">
                <s-paragraph>{view.join.message}</s-paragraph>
                {view.join.button ? (
                  <s-button variant="primary" loading={props.joining} onClick={props.onJoin}>
                    {view.join.button}
                  </s-button>
                ) : null}
              </s-stack>
            ) : null}
          </s-stack>
        </s-section>
        <s-section heading={view.friends.heading}>
          <s-stack gap="base">
            {view.friends.empty ? <s-paragraph>{view.friends.empty}</s-paragraph> : null}
            {view.friends.rows.map((row, i) => (
              <s-stack key={i} gap="small-200">
                <s-text type="strong">{row.friend}</s-text>
                <s-text color="subdued">{row.line}</s-text>
              </s-stack>
            ))}
            <s-divider />
            <s-text>{view.rewards}</s-text>
            {view.storeCredit ? <s-text>{view.storeCredit}</s-text> : null}
          </s-stack>
        </s-section>
      </s-stack>
    </s-page>
  );
}
