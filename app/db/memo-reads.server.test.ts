import { describe, expect, it, vi } from "vitest";
import { memoReads, primeRead } from "./memo-reads.server";

// A stand-in with the shape of a Prisma client: model delegates with read
// and write methods, and $-methods for raw statements.
function fakeClient() {
  let failNext = false;
  const client = {
    shop: {
      findUnique: vi.fn(async (args: { where: { id: string } }) => {
        if (failNext) {
          failNext = false;
          throw new Error("connection lost");
        }
        return { id: args.where.id, name: "Shop", createdAt: new Date("2026-01-01T00:00:00Z") };
      }),
      findMany: vi.fn(async () => [{ id: "a" }, { id: "b" }]),
      update: vi.fn(async (args: { where: { id: string } }) => ({ id: args.where.id })),
    },
    $queryRawUnsafe: vi.fn(async (_sql: string) => [{ n: 1 }]),
    failNextRead: () => (failNext = true),
  };
  return client;
}

describe("memoReads", () => {
  it("runs each distinct read once and gives every caller its own copy", async () => {
    const client = fakeClient();
    const reader = memoReads(client);
    const first = await reader.shop.findUnique({ where: { id: "s1" } });
    const second = await reader.shop.findUnique({ where: { id: "s1" } });
    expect(client.shop.findUnique).toHaveBeenCalledTimes(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second.createdAt).toBeInstanceOf(Date);
    // A caller that changes its copy changes nobody else's.
    first.name = "changed";
    expect((await reader.shop.findUnique({ where: { id: "s1" } })).name).toBe("Shop");
  });

  it("reads again for other arguments, another method, or another reader", async () => {
    const client = fakeClient();
    const reader = memoReads(client);
    await reader.shop.findUnique({ where: { id: "s1" } });
    await reader.shop.findUnique({ where: { id: "s2" } });
    await reader.shop.findMany();
    await reader.shop.findMany();
    await memoReads(client).shop.findUnique({ where: { id: "s1" } });
    expect(client.shop.findUnique).toHaveBeenCalledTimes(3);
    expect(client.shop.findMany).toHaveBeenCalledTimes(1);
  });

  it("passes writes and raw statements through every time", async () => {
    const client = fakeClient();
    const reader = memoReads(client);
    await reader.shop.update({ where: { id: "s1" } });
    await reader.shop.update({ where: { id: "s1" } });
    await reader.$queryRawUnsafe("SELECT 1");
    await reader.$queryRawUnsafe("SELECT 1");
    expect(client.shop.update).toHaveBeenCalledTimes(2);
    expect(client.$queryRawUnsafe).toHaveBeenCalledTimes(2);
  });

  it("does not remember a read that failed", async () => {
    const client = fakeClient();
    const reader = memoReads(client);
    client.failNextRead();
    await expect(reader.shop.findUnique({ where: { id: "s1" } })).rejects.toThrow("connection lost");
    expect(await reader.shop.findUnique({ where: { id: "s1" } })).toMatchObject({ id: "s1" });
    expect(client.shop.findUnique).toHaveBeenCalledTimes(2);
  });

  it("answers a primed read without reading, a copy each time, and primes only its own reader", async () => {
    const client = fakeClient();
    const reader = memoReads(client);
    const other = memoReads(client);
    const row = { id: "s1", name: "Primed" };
    primeRead(reader, "shop", "findUnique", { where: { id: "s1" } }, row);
    primeRead(reader, "shop", "findUnique", { where: { id: "gone" } }, null);
    primeRead(client, "shop", "findUnique", { where: { id: "s1" } }, row); // not a memo reader: nothing
    const first = await reader.shop.findUnique({ where: { id: "s1" } });
    expect(first).toEqual(row);
    expect(first).not.toBe(row);
    expect(await reader.shop.findUnique({ where: { id: "gone" } })).toBeNull();
    expect(client.shop.findUnique).not.toHaveBeenCalled();
    // Other arguments, or another reader, still read.
    await reader.shop.findUnique({ where: { id: "s2" } });
    expect(await other.shop.findUnique({ where: { id: "s1" } })).toMatchObject({ name: "Shop" });
    expect(client.shop.findUnique).toHaveBeenCalledTimes(2);
  });
});
