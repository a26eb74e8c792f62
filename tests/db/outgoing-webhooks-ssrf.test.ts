import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { emitEvent } from "~/models/events/emit-event.server";
import { drainJobs } from "~/worker/job-registry.server";
import { newWebhookSecret } from "~/models/webhooks-out/endpoints.server";
import { ApiClient, buildApiKey } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";
import { useTestServer } from "../support/test-server";
import { WebhookReceiver } from "../support/webhook-receiver";

// Without WEBHOOKS_ALLOW_PRIVATE (the production default) the app refuses to
// post to private, loopback, link-local and metadata addresses: when the
// merchant registers the URL (every address its name resolves to), and again
// at each delivery (an address that became private since, or a row written
// some other way). A real receiver listens on loopback to prove that nothing
// reaches it.
applyTestEnv({ WEBHOOKS_ALLOW_PRIVATE: "0" });
useTestDatabase();
const server = useTestServer();

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

describe("private addresses", () => {
  it("are refused at registration with 422 and the reason, and nothing is stored", async () => {
    const shop = await buildShop();
    const api = new ApiClient(server.url, (await buildApiKey(shop.id)).key);
    const urls = [
      receiver.url(),
      "http://localhost/hooks", // a name that resolves to loopback
      "http://169.254.169.254/latest/meta-data/", // cloud metadata
      "http://10.0.0.8/hooks",
      "http://192.168.1.20/hooks",
      "http://[::1]/hooks",
      "http://[::ffff:127.0.0.1]/hooks",
      "http://[fe80::1]/hooks",
      "http://0.0.0.0/hooks",
    ];
    for (const url of urls) {
      const res = await api.post("/api/v1/webhook-endpoints", { url, event_types: ["affiliate.created"] });
      expect(res.status, url).toBe(422);
      const error = ((await res.json()) as { error: { code: string; fields: Record<string, string> } }).error;
      expect(error.fields.url, url).toMatch(/cannot receive webhooks: .*private, loopback, link-local or metadata/);
    }
    expect(await getDb().webhookEndpoint.count()).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("are refused at delivery too: the attempt is logged and nothing is sent", async () => {
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const affiliate = await buildAffiliate(shop.id, campaign.id);
    // Registered while the check passed (or written another way): the delivery checks again.
    const endpoints = await Promise.all(
      [receiver.url(), `http://localhost:${new URL(receiver.url()).port}/hooks`].map((url) =>
        getDb().webhookEndpoint.create({
          data: {
            shopId: shop.id,
            url,
            eventTypes: JSON.stringify(["affiliate.approved"]),
            secret: newWebhookSecret(),
          },
        }),
      ),
    );
    await getDb().$transaction((tx) => emitEvent(tx, shop.id, "affiliate.approved", { affiliateId: affiliate.id }));
    await drainJobs();
    expect(receiver.received).toHaveLength(0);
    for (const endpoint of endpoints) {
      const delivery = await getDb().webhookDelivery.findFirstOrThrow({
        where: { endpointId: endpoint.id },
        include: { attemptsLog: true },
      });
      expect(delivery.status).toBe("pending");
      expect(delivery.attemptsLog).toHaveLength(1);
      expect(delivery.attemptsLog[0]).toMatchObject({ ok: false, statusCode: null });
      expect(delivery.attemptsLog[0]!.error).toMatch(/private, loopback, link-local or metadata/);
    }
  });
});
