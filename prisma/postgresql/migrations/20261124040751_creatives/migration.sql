-- CreateTable
CREATE TABLE "Creative" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "category" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "fileName" TEXT,
    "originalName" TEXT,
    "mimeType" TEXT,
    "sizeBytes" INTEGER,
    "width" INTEGER,
    "height" INTEGER,
    "thumbnails" TEXT NOT NULL DEFAULT '{}',
    "destinationPath" TEXT,
    "videoUrl" TEXT,
    "body" TEXT,
    "allCampaigns" BOOLEAN NOT NULL DEFAULT true,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Creative_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CreativeCampaign" (
    "shopId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,

    CONSTRAINT "CreativeCampaign_pkey" PRIMARY KEY ("creativeId","campaignId")
);

-- CreateTable
CREATE TABLE "CreativeUse" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "creativeId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CreativeUse_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Creative_shopId_createdAt_idx" ON "Creative"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "CreativeCampaign_campaignId_idx" ON "CreativeCampaign"("campaignId");

-- CreateIndex
CREATE INDEX "CreativeUse_creativeId_action_idx" ON "CreativeUse"("creativeId", "action");

-- CreateIndex
CREATE UNIQUE INDEX "CreativeUse_creativeId_affiliateId_action_day_key" ON "CreativeUse"("creativeId", "affiliateId", "action", "day");

-- AddForeignKey
ALTER TABLE "Creative" ADD CONSTRAINT "Creative_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreativeCampaign" ADD CONSTRAINT "CreativeCampaign_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreativeCampaign" ADD CONSTRAINT "CreativeCampaign_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "Creative"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreativeCampaign" ADD CONSTRAINT "CreativeCampaign_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreativeUse" ADD CONSTRAINT "CreativeUse_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreativeUse" ADD CONSTRAINT "CreativeUse_creativeId_fkey" FOREIGN KEY ("creativeId") REFERENCES "Creative"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreativeUse" ADD CONSTRAINT "CreativeUse_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

