/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import {
  blockTexts,
  buildLinkRequest,
  copyText,
  nextStep,
  readLinkAnswer,
  type BuyerFacts,
  type Formatters,
  type LinkAnswer,
  type Translate,
} from "./referral-logic";

// The block both targets render: asks the app for the buyer's share link
// (asking again while the order is on its way) and shows it with a copy
// button. It renders nothing until there is a link, and nothing at all when
// the program is off or anything fails: the page belongs to the shop.

/** What the block needs from the page; ThankYou.tsx and OrderStatus.tsx fill it from each target's API. */
export interface BlockHost extends Formatters {
  appUrl: string;
  facts: () => BuyerFacts;
  sessionToken: () => Promise<string>;
  translate: Translate;
}

type Ready = Extract<LinkAnswer, { status: "ready" }>;

async function askOnce(host: BlockHost): Promise<LinkAnswer | null> {
  const request = buildLinkRequest(host.appUrl, await host.sessionToken(), host.facts());
  if (!request) return null;
  const response = await fetch(request.url, request.init);
  const body: unknown = await response.json().catch(() => null);
  return readLinkAnswer(response.status, body);
}

export function ReferralBlock({ host }: { host: BlockHost }) {
  const [answer, setAnswer] = useState<Ready | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async (attempt: number) => {
      const got = await askOnce(host).catch(() => null);
      if (stopped || !got) return;
      const step = nextStep(got, attempt);
      if (step.kind === "show") setAnswer(step.answer);
      else if (step.kind === "retry") timer = setTimeout(() => void run(attempt + 1), step.afterMs);
    };
    void run(1);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [host]);

  if (!answer) return null;
  const texts = blockTexts(answer, host.translate, host);
  return (
    <s-section heading={texts.heading}>
      <s-stack gap="base">
        <s-paragraph>{texts.offer}</s-paragraph>
        <s-text-field label={texts.linkLabel} value={answer.shareUrl} readOnly />
        <s-clipboard-item id="referral-share-link" text={copyText(answer)} onCopy={() => setCopied(true)} />
        <s-button variant="primary" command="--copy" commandFor="referral-share-link">
          {copied ? texts.copied : texts.copy}
        </s-button>
        {texts.code ? <s-text>{texts.code}</s-text> : null}
      </s-stack>
    </s-section>
  );
}
