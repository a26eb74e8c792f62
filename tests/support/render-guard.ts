import { afterEach, beforeEach, expect } from "vitest";
import { rendersUnderWriteLock } from "~/db/write-lock-stats";

/**
 * Fails a test that started a Liquid render (an e-mail composed) while this
 * process held SQLite's write lock: every other writer of the file would
 * wait out the render (ADR 035). On PostgreSQL nothing is counted.
 * The flows under test must be sequential: a render of one flow while
 * another holds the lock counts too.
 */
export function useNoRenderUnderWriteLock() {
  beforeEach(() => {
    rendersUnderWriteLock({ reset: true });
  });
  afterEach(() => {
    expect(rendersUnderWriteLock({ reset: true }), "template renders under SQLite's write lock").toBe(0);
  });
}

/**
 * The same for one test (where others of its file run flows at once): call
 * it at the test's start; the answer counts the renders under the lock since.
 */
export function watchRendersUnderWriteLock(): () => number {
  rendersUnderWriteLock({ reset: true });
  return () => rendersUnderWriteLock({ reset: true });
}
