import type { Page } from "playwright-core";

/**
 * The endless animations running in the page now, each as "name on
 * <class of its element>". A page at rest should have none: one keeps the
 * renderer making a frame every 16 ms (IndexTable's hidden loading spinners
 * did, issue 33). Used by the e2e test of lists at rest and the vitals bench.
 */
export function endlessAnimations(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === "running" && a.effect?.getTiming().iterations === Infinity)
      .map((a) => {
        const target = (a.effect as KeyframeEffect).target;
        return `${(a as CSSAnimation).animationName} on ${target?.closest("[class]")?.getAttribute("class")}`;
      }),
  );
}
