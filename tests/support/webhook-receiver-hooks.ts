import { afterAll, beforeAll } from "vitest";
import { WebhookReceiver } from "./webhook-receiver";

/** A receiver started before the file's tests and stopped after them; `current()` is it. */
export function useWebhookReceiver() {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterAll(() => receiver?.stop());
  return { current: () => receiver! };
}
