-- CreateTable
CREATE TABLE "FlowTrigger" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlowTrigger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowActionRun" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "actionRunId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "response" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlowActionRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FlowTrigger_shopId_createdAt_idx" ON "FlowTrigger"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "FlowTrigger_shopId_dedupeKey_key" ON "FlowTrigger"("shopId", "dedupeKey");

-- CreateIndex
CREATE UNIQUE INDEX "FlowActionRun_shopId_actionRunId_key" ON "FlowActionRun"("shopId", "actionRunId");

-- AddForeignKey
ALTER TABLE "FlowTrigger" ADD CONSTRAINT "FlowTrigger_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlowActionRun" ADD CONSTRAINT "FlowActionRun_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

