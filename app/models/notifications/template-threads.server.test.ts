import { afterAll, describe, expect, it } from "vitest";
import { renderTemplate } from "./liquid-template";
import {
  checkTemplateInThread,
  renderTemplateInThread,
  stopTemplateThreads,
  TEMPLATE_RENDER_TIME_LIMIT_MS,
  TEMPLATE_TIME_LIMIT_MS,
  TemplateLimitError,
} from "./template-threads.server";

// Liquid in worker threads: the same output as in the process, and the
// limits stop a template without stopping the event loop.
afterAll(() => stopTemplateThreads());

const LOOP = "{% for i in (1..10000) %}{% for j in (1..10000) %}{% assign x = j %}{% endfor %}{% endfor %}";

/** Runs `work` and counts the event loop's 5 ms ticks meanwhile. */
async function ticksDuring<T>(work: () => Promise<T>) {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  const started = performance.now();
  try {
    const result = await work().then(
      (value) => ({ value, error: null }),
      (error: unknown) => ({ value: null, error }),
    );
    return { ...result, ms: performance.now() - started, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe("template threads", () => {
  it("render as the process does", async () => {
    const values = { affiliate: { first_name: 'Jane "JD"' }, link: "https://a.example/?ref=JD" };
    const subject = "Hi {{ affiliate.first_name }}";
    const body = "Hello {{ affiliate.first_name }},\n\nyour link: {{ link }}\n\n<b>bold</b> &amp; more";
    expect(await renderTemplateInThread(subject, body, values)).toEqual(await renderTemplate(subject, body, values));
  });

  it("check like checkTemplate: a problem with its line, null when fine", async () => {
    expect(await checkTemplateInThread("Hi {{ name }}", { name: "Jane" })).toBeNull();
    expect(await checkTemplateInThread("Hi\n{{ nmae }}", { name: "Jane" })).toMatchObject({ line: 2 });
    expect(await checkTemplateInThread("Hi\n\n{% if name %}", { name: "Jane" })).toMatchObject({ line: 3 });
  });

  it("stop a looping template at the render's time limit, and the event loop runs on meanwhile", async () => {
    await renderTemplateInThread("warm", "up", {});
    const run = await ticksDuring(() => renderTemplateInThread("Loop", LOOP, {}));
    expect(run.error).toBeInstanceOf(TemplateLimitError);
    expect(run.error).toMatchObject({ limit: "time", ms: TEMPLATE_RENDER_TIME_LIMIT_MS });
    // A render (of text that passed its check) gets the longer limit: a busy
    // machine must not fail a real e-mail at the check's 150 ms.
    expect(run.ms).toBeGreaterThanOrEqual(TEMPLATE_RENDER_TIME_LIMIT_MS - 5);
    // liquidjs's own limit stopped it after about 2 s, on the process's thread.
    expect(run.ms).toBeLessThan(1_800);
    // A loop blocked by the render would tick at most once; a busy machine
    // delays timers, so a few ticks are the proof, not a rate.
    expect(run.ticks).toBeGreaterThanOrEqual(3);
    // The thread was replaced: the next render works.
    expect((await renderTemplateInThread("After", "fine", {})).text).toBe("fine");
  });

  it("stop a check that loops the same way, at the check's shorter limit", async () => {
    const run = await ticksDuring(() => checkTemplateInThread(LOOP, {}));
    expect(run.error).toMatchObject({ limit: "time", ms: TEMPLATE_TIME_LIMIT_MS });
    expect((run.error as Error).message).toContain(`${TEMPLATE_TIME_LIMIT_MS} ms`);
    expect(run.ms).toBeGreaterThanOrEqual(TEMPLATE_TIME_LIMIT_MS - 5);
    expect(run.ms).toBeLessThan(TEMPLATE_RENDER_TIME_LIMIT_MS);
  });

  it("refuse an output over the cap", async () => {
    const kilobyte = "x".repeat(1000);
    const big = `{% capture k %}${kilobyte}{% endcapture %}${"{{ k }}".repeat(300)}`;
    await expect(renderTemplateInThread("Big", big, {})).rejects.toMatchObject({ limit: "output" });
    await expect(checkTemplateInThread(big, {})).rejects.toMatchObject({ limit: "output" });
  });

  it("tell the editor to come back when many checks wait, but let e-mails wait their turn", async () => {
    const checks = Array.from({ length: 80 }, () =>
      checkTemplateInThread("Hi {{ n }}", { n: 1 }).then(
        () => "checked",
        (error: unknown) => (error instanceof TemplateLimitError ? error.limit : "other"),
      ),
    );
    const renders = Array.from({ length: 80 }, (_, i) => renderTemplateInThread("S", `B{{ n }}`, { n: i }));
    const outcomes = await Promise.all(checks);
    expect(outcomes).toContain("busy");
    expect(outcomes.filter((o) => o !== "busy" && o !== "checked")).toEqual([]);
    expect((await Promise.all(renders)).map((r) => r.text)).toEqual(Array.from({ length: 80 }, (_, i) => `B${i}`));
  });

  it("keep renders of several callers apart, and report a template's own error", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => renderTemplateInThread(`S{{ n }}`, `B{{ n }}`, { n: i })),
    );
    expect(answers.map((a) => a.subject)).toEqual(Array.from({ length: 12 }, (_, i) => `S${i}`));
    await expect(renderTemplateInThread("x", "{{ a | nosuchfilter }}", { a: 1 })).rejects.toThrow(/nosuchfilter/);
  });
});
