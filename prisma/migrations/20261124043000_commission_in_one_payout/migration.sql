-- A commission line belongs to at most one payout (issue 11): once a line
-- is in a payout, it can only leave it (payoutId back to NULL, when that
-- payout fails or is cancelled), never move straight into another one.
-- Hand-written: Prisma cannot declare triggers. A future migration that
-- rebuilds the "Commission" table on SQLite must create it again.
CREATE TRIGGER "Commission_payout_once"
BEFORE UPDATE OF "payoutId" ON "Commission"
FOR EACH ROW
WHEN OLD."payoutId" IS NOT NULL AND NEW."payoutId" IS NOT NULL AND OLD."payoutId" <> NEW."payoutId"
BEGIN
  SELECT RAISE(ABORT, 'commission line already in a payout');
END;
