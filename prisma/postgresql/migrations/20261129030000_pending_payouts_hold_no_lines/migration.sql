-- A pending payout holds no commission lines (ADR 058): it shows the
-- affiliate's loose balance and takes the lines as it leaves pending. Lines
-- that an earlier refresh gathered into a payout still pending go back to
-- the balance; the payout's amount is unchanged and the next refresh sets it
-- from the same lines.
UPDATE "Commission" SET "payoutId" = NULL
WHERE "payoutId" IN (SELECT "id" FROM "Payout" WHERE "status" = 'pending');
