-- CreateIndex
CREATE INDEX "Job_status_type_runAt_idx" ON "Job"("status", "type", "runAt");

