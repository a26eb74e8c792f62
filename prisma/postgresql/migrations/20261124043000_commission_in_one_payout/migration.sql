-- A commission line belongs to at most one payout (issue 11): once a line
-- is in a payout, it can only leave it (payoutId back to NULL, when that
-- payout fails or is cancelled), never move straight into another one.
-- Hand-written: Prisma cannot declare triggers.
CREATE FUNCTION "Commission_payout_once"() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'commission line already in a payout' USING ERRCODE = 'unique_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "Commission_payout_once"
BEFORE UPDATE OF "payoutId" ON "Commission"
FOR EACH ROW
WHEN (OLD."payoutId" IS NOT NULL AND NEW."payoutId" IS NOT NULL AND OLD."payoutId" <> NEW."payoutId")
EXECUTE FUNCTION "Commission_payout_once"();
