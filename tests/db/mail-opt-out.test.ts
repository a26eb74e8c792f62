import { describe, expect, it } from "vitest";
import { getDb } from "~/db.server";
import { prismaBulk } from "~/db/bulk-sql.server";
import { dialectOf } from "~/db/dialect";
import { emitEvent } from "~/models/events/emit-event.server";
import type { EventWrite } from "~/models/events/event-subscriber";
import { queueEmail } from "~/models/mail/outbox.server";
import { dispatchEvent, planDispatch } from "~/worker/dispatch-event.server";
import { planEventDispatch } from "~/worker/dispatch-events-batch.server";
import { buildCommission, buildOrder } from "../support/api-builders";
import { buildAffiliate, buildCampaign, buildShop } from "../support/builders";
import { useTestDatabase } from "../support/test-db";
import { applyTestEnv } from "../support/test-env";

// A recipient who opted out of a kind of e-mail gets no more of it, from
// whichever path composes it. The opt-out is checked where the e-mail is
// written, in the same transaction: an event's e-mails are composed before
// that transaction (no template renders under SQLite's write lock), so an
// opt-out saved in between must still stop it.

applyTestEnv();
useTestDatabase();

const ADDRESS = "anna@example.com";

async function commissionEvent() {
  const shop = await buildShop();
  const campaign = await buildCampaign(shop.id);
  const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "approved", email: ADDRESS });
  const order = await buildOrder(shop.id, { affiliateId: affiliate.id, total: 12_000, name: "#1001" });
  const commission = await buildCommission(shop.id, order.id, affiliate.id, { amount: 1_200 });
  const eventId = await getDb().$transaction((tx) =>
    emitEvent(tx, shop.id, "commission.created", {
      commissionId: commission.id,
      affiliateId: affiliate.id,
      orderId: order.id,
      kind: "sale",
      amount: commission.amount,
      currency: "USD",
    }),
  );
  return { shop, eventId };
}

const optOut = (shopId: string, kind: string) =>
  getDb().mailOptOut.create({ data: { shopId, address: ADDRESS, kind } });

const mailsTo = async (shopId: string) =>
  (await getDb().outboxEmail.findMany({ where: { shopId, toAddress: ADDRESS }, select: { kind: true } })).map(
    (m) => m.kind,
  );

const write = (planned: EventWrite | null) =>
  getDb().$transaction(async (tx) => {
    if (planned) await planned(prismaBulk(tx, dialectOf(tx)));
  });

describe("opting out of a kind of e-mail", () => {
  it("stops that kind from an event, and a replay queues nothing", async () => {
    const { shop, eventId } = await commissionEvent();
    await optOut(shop.id, "affiliate.commission");
    await dispatchEvent(eventId);
    await dispatchEvent(eventId);
    expect(await mailsTo(shop.id)).toEqual([]);
  });

  it("sends it to someone who opted out of another kind only", async () => {
    const { shop, eventId } = await commissionEvent();
    await optOut(shop.id, "affiliate.payout_sent");
    await dispatchEvent(eventId);
    expect(await mailsTo(shop.id)).toEqual(["affiliate.commission"]);
  });

  it("is honoured when saved after the e-mail was composed and before it is written (one event)", async () => {
    const { shop, eventId } = await commissionEvent();
    const planned = await planDispatch(getDb(), eventId);
    await optOut(shop.id, "affiliate.commission");
    await write(planned);
    expect(await mailsTo(shop.id)).toEqual([]);
  });

  it("is honoured when saved after the e-mail was composed and before it is written (a batch of events)", async () => {
    const { shop, eventId } = await commissionEvent();
    const db = getDb();
    const planned = await planEventDispatch([{ eventId }], prismaBulk(db, dialectOf(db)), db);
    await optOut(shop.id, "affiliate.commission");
    await write(planned);
    expect(await mailsTo(shop.id)).toEqual([]);
  });

  it("is honoured the same way for a bulk approval's e-mails (composed in one set)", async () => {
    const db = getDb();
    const shop = await buildShop();
    const campaign = await buildCampaign(shop.id);
    const approvals = [];
    for (const email of [ADDRESS, "ben@example.com"]) {
      const affiliate = await buildAffiliate(shop.id, campaign.id, { status: "approved", email });
      approvals.push(
        await db.$transaction((tx) => emitEvent(tx, shop.id, "affiliate.approved", { affiliateId: affiliate.id })),
      );
    }
    const planned = await planEventDispatch(
      approvals.map((eventId) => ({ eventId })),
      prismaBulk(db, dialectOf(db)),
      db,
    );
    await optOut(shop.id, "affiliate.approved");
    await write(planned);
    const mails = await db.outboxEmail.findMany({
      where: { shopId: shop.id },
      select: { kind: true, toAddress: true },
    });
    expect(mails).toEqual([{ kind: "affiliate.approved", toAddress: "ben@example.com" }]);
    // Each e-mail written has its send job, and none is queued for the one not written.
    expect(await db.job.count({ where: { type: "email.send" } })).toBe(1);
  });

  it("does not stop a test send of that kind, nor an e-mail without an unsubscribe link", async () => {
    const shop = await buildShop();
    await optOut(shop.id, "affiliate.commission");
    const mail = { shopId: shop.id, to: ADDRESS, subject: "s", text: "t", kind: "affiliate.commission" };
    const queue = (extra: object) => getDb().$transaction((tx) => queueEmail(tx, { ...mail, ...extra }));
    expect(await queue({ unsubscribeUrl: "https://app.example/u", isTest: true })).not.toBeNull();
    expect(await queue({ unsubscribeUrl: null })).not.toBeNull();
    expect(await queue({ unsubscribeUrl: "https://app.example/u" })).toBeNull();
    expect(await mailsTo(shop.id)).toEqual(["affiliate.commission", "affiliate.commission"]);
  });
});
