// What committing clicks costs SQLite, measured alone (not part of
// `npm run bench`): the Click table of the real migrations, written the way
// the /r/ fast path writes it (one multi-row INSERT per event-loop turn, the
// link's shared values bound once), at several batch sizes; and, for
// comparison, a rowid-only journal table of the same columns whose rows are
// moved into Click in bulk. Prints the CPU per click (user and system) and
// the WAL frames (pages written) per commit.
//   npx tsx tests/bench/click-write-costs.ts
// The click bench (issue 17) is bound by the app's event loop; this shows
// where the insert's share of it goes (ADR 025).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { newClickIds } from "../../app/models/tracking/record-click.server";
import { seedClickLink } from "../support/click-link";

const CLICKS = Number(process.env.CLICKS ?? 200_000);
const BATCHES = [8, 16, 26, 32, 64];
const JOURNAL_BATCH = 26;
// A move every 200 commits of 26: ~5,000 rows, about 100 ms of clicks at 50k/s.
const MOVE_EVERY = 200;
const LANDING = "https://bench-shop.example/products/bench-shirt?variant=1";
const IP_HASH = "0123456789abcdef0123456789abcdef";

const COLUMNS = `("id", "shopId", "affiliateId", "clickId", "source", "landingUrl", "referrer", "ipHash", "userAgent", "createdAt")`;
const SHARED_ROW = "(?, @shopId, @affiliateId, ?, @source, @landingUrl, ?, ?, ?, ?)";

interface Cost {
  cpuUs: number;
  userUs: number;
  sysUs: number;
}

function cpuSince(start: NodeJS.CpuUsage, clicks: number): Cost {
  const used = process.cpuUsage(start);
  return {
    cpuUs: (used.user + used.system) / clicks,
    userUs: used.user / clicks,
    sysUs: used.system / clicks,
  };
}

function open(file: string) {
  const db = new Database(file, { timeout: 0 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // Frames are counted between explicit checkpoints.
  db.pragma("wal_autocheckpoint = 0");
  return db;
}

/** The values of one commit: the row-own values, the link's shared ones apart. */
function batchValues(rows: number): unknown[] {
  const own: unknown[] = [];
  const date = new Date().toISOString().replace("Z", "+00:00");
  for (let i = 0; i < rows; i++) {
    const { id, clickId } = newClickIds();
    own.push(id, clickId, null, IP_HASH, null, date);
  }
  return own;
}

/** WAL frames written since the last TRUNCATE checkpoint, then truncates again. */
function framesAndReset(db: Database.Database): number {
  // A PASSIVE checkpoint reports the WAL's frames; TRUNCATE then empties it.
  const [row] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
  db.pragma("wal_checkpoint(TRUNCATE)");
  return row!.log;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "click-costs-"));
  const file = path.join(dir, "clicks.sqlite");
  try {
    await seedClickLink(`file:${file}`, "BENCH", "Bench shop");
    const db = open(file);
    const target = db.prepare(`SELECT "id", "shopId" FROM "Affiliate" WHERE "referralCode" = 'BENCH'`).get() as {
      id: string;
      shopId: string;
    };
    const shared = { shopId: target.shopId, affiliateId: target.id, source: "link", landingUrl: LANDING };
    console.log(
      `${CLICKS.toLocaleString("en-US")} clicks per line; a checkpoint every 45 commits as the checkpointer would`,
    );
    console.log("writing to Click (the fast path today)");
    console.log("  batch   cpu µs/click   user   sys   WAL frames/commit");
    for (const batch of BATCHES) {
      const insert = db.prepare(
        `INSERT INTO "Click" ${COLUMNS} VALUES ${new Array(batch).fill(SHARED_ROW).join(", ")}`,
      );
      framesAndReset(db);
      // Frames of 200 commits, measured apart from the timed run.
      for (let k = 0; k < 200; k++) insert.run(batchValues(batch), shared);
      const frames = framesAndReset(db) / 200;
      const start = process.cpuUsage();
      for (let done = 0, k = 0; done < CLICKS; done += batch, k++) {
        insert.run(batchValues(batch), shared);
        if (k % 45 === 44) db.pragma("wal_checkpoint(PASSIVE)");
      }
      const cost = cpuSince(start, CLICKS);
      console.log(
        `  ${String(batch).padStart(5)}   ${cost.cpuUs.toFixed(2).padStart(12)}   ${cost.userUs.toFixed(2).padStart(4)}  ${cost.sysUs.toFixed(2).padStart(4)}   ${frames.toFixed(1).padStart(17)}`,
      );
    }

    // The alternative: a table with no index but its rowid takes the
    // request-path commit; a mover copies its rows into Click in bulk.
    db.exec(`CREATE TABLE "BenchClickJournal" ("id" TEXT NOT NULL, "shopId" TEXT NOT NULL, "affiliateId" TEXT NOT NULL,
      "clickId" TEXT NOT NULL, "source" TEXT NOT NULL, "landingUrl" TEXT NOT NULL, "referrer" TEXT, "ipHash" TEXT,
      "userAgent" TEXT, "createdAt" DATETIME NOT NULL)`);
    const journal = db.prepare(
      `INSERT INTO "BenchClickJournal" ${COLUMNS} VALUES ${new Array(JOURNAL_BATCH).fill(SHARED_ROW).join(", ")}`,
    );
    const lastRow = db.prepare(`SELECT max(rowid) AS last FROM "BenchClickJournal"`);
    const copy = db.prepare(
      `INSERT INTO "Click" ${COLUMNS} SELECT * FROM "BenchClickJournal" WHERE rowid <= ? ORDER BY rowid`,
    );
    const drop = db.prepare(`DELETE FROM "BenchClickJournal" WHERE rowid <= ?`);
    const move = db.transaction(() => {
      const { last } = lastRow.get() as { last: number | null };
      if (last !== null) {
        copy.run(last);
        drop.run(last);
      }
    });
    framesAndReset(db);
    for (let k = 0; k < 200; k++) journal.run(batchValues(JOURNAL_BATCH), shared);
    const journalFrames = framesAndReset(db) / 200;
    move.immediate();
    framesAndReset(db);
    let insertUs = 0;
    let moveUs = 0;
    for (let done = 0, k = 0; done < CLICKS; done += JOURNAL_BATCH, k++) {
      const values = batchValues(JOURNAL_BATCH);
      let start = process.cpuUsage();
      journal.run(values, shared);
      let used = process.cpuUsage(start);
      insertUs += used.user + used.system;
      if (k % MOVE_EVERY === MOVE_EVERY - 1) {
        start = process.cpuUsage();
        move.immediate();
        used = process.cpuUsage(start);
        moveUs += used.user + used.system;
      }
      if (k % 45 === 44) db.pragma("wal_checkpoint(PASSIVE)");
    }
    console.log(
      `writing to a rowid-only journal, batch ${JOURNAL_BATCH}, moved into Click every ${MOVE_EVERY} commits`,
    );
    console.log(
      `  request path ${(insertUs / CLICKS).toFixed(2)} µs/click (${journalFrames.toFixed(1)} WAL frames/commit); the move ${(moveUs / CLICKS).toFixed(2)} µs/click`,
    );
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
